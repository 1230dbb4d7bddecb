//! One input line to one typed command. Parsing only: nothing here touches a game.

use std::time::Duration;

/// A command a viewer, a script or a person may send.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Info,
    NewGame(Option<String>),
    Play(String),
    Pass,
    ValidMoves,
    BestMoveTime(Duration),
    BestMoveDepth(u32),
    Undo(usize),
    Options,
    OptionsGet(String),
    OptionsSet(String, String),
    Help,
    Perft(u32),
    Board,
    History,
    Exit,
}

/// Parse one line; `Ok(None)` for a blank line, `Err(message)` for anything not understood.
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let line = line.trim();
    let Some(name) = line.split_whitespace().next() else {
        return Ok(None);
    };
    let rest = line[name.len()..].trim();
    let args: Vec<&str> = rest.split_whitespace().collect();
    let command = match name.to_ascii_lowercase().as_str() {
        "info" => Command::Info,
        "newgame" => Command::NewGame((!rest.is_empty()).then(|| rest.to_string())),
        "play" if !rest.is_empty() => Command::Play(rest.to_string()),
        "play" => return Err("play needs a MoveString, for example: play wS1".into()),
        "pass" => Command::Pass,
        "validmoves" => Command::ValidMoves,
        "bestmove" => match args.as_slice() {
            [kind, value] if kind.eq_ignore_ascii_case("time") => Command::BestMoveTime(parse_time(value)?),
            [kind, value] if kind.eq_ignore_ascii_case("depth") => Command::BestMoveDepth(
                value
                    .parse()
                    .map_err(|_| format!("'{value}' is not a depth: expected a whole number of plies"))?,
            ),
            _ => return Err("bestmove needs 'time hh:mm:ss' or 'depth N'".into()),
        },
        "undo" => match args.as_slice() {
            [] => Command::Undo(1),
            [n] => Command::Undo(
                n.parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("'{n}' is not a number of moves to undo"))?,
            ),
            _ => return Err("undo takes at most one number".into()),
        },
        "options" => match args.as_slice() {
            [] => Command::Options,
            [get, name] if get.eq_ignore_ascii_case("get") => Command::OptionsGet(name.to_string()),
            [set, name, value] if set.eq_ignore_ascii_case("set") => {
                Command::OptionsSet(name.to_string(), value.to_string())
            }
            _ => return Err("options takes nothing, 'get <Name>' or 'set <Name> <Value>'".into()),
        },
        "help" => Command::Help,
        "perft" => match args.as_slice() {
            [n] => Command::Perft(
                n.parse()
                    .ok()
                    .filter(|&n| n <= 12)
                    .ok_or_else(|| format!("'{n}' is not a perft depth (0 to 12)"))?,
            ),
            _ => return Err("perft needs a depth, for example: perft 3".into()),
        },
        "board" => Command::Board,
        "history" => Command::History,
        "exit" | "quit" => Command::Exit,
        _ => return Err(format!("Unknown command '{name}'. Try 'help'.")),
    };
    Ok(Some(command))
}

/// Parse `hh:mm:ss` with optional fractional seconds (`00:00:00.5000000` is what .NET sends).
fn parse_time(text: &str) -> Result<Duration, String> {
    let err = || format!("'{text}' is not a time: expected hh:mm:ss, for example 00:00:05 or 00:00:00.5");
    let parts: Vec<&str> = text.split(':').collect();
    let [h, m, s] = parts.as_slice() else { return Err(err()) };
    let hours: u64 = h.parse().map_err(|_| err())?;
    let minutes: u64 = m.parse().map_err(|_| err())?;
    let seconds: f64 = s.parse().map_err(|_| err())?;
    if minutes >= 60 || !(0.0..60.0).contains(&seconds) || hours > 1000 {
        return Err(err());
    }
    Ok(Duration::from_secs(hours * 3600 + minutes * 60) + Duration::from_secs_f64(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands_in_any_case_with_blanks() {
        assert_eq!(parse("  PLAY   wS1  \r"), Ok(Some(Command::Play("wS1".into()))));
        assert_eq!(parse("\t"), Ok(None));
        assert_eq!(parse("undo 3"), Ok(Some(Command::Undo(3))));
        assert_eq!(
            parse("bestmove time 00:00:00.5000000"),
            Ok(Some(Command::BestMoveTime(Duration::from_millis(500))))
        );
        assert_eq!(parse("bestmove DEPTH 2"), Ok(Some(Command::BestMoveDepth(2))));
        assert!(parse("bestmove time 5").is_err());
        assert!(parse("undo -1").is_err());
        assert!(parse("frobnicate").is_err());
    }
}
