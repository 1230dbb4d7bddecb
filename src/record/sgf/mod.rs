//! BoardSpace's Hive records (`.sgf`), the archive of every game played on boardspace.net since 2006, read into
//! Waggle's game: the same [`GameRecord`] a `.pgn` gives, its moves in canonical MoveStrings, every one replayed and
//! checked.
//!
//! A record is an SGF game tree (`syntax`): a header (`GM[27]` for Hive, the variant `SU[hive-plm]`, the date `DT`,
//! the game's name `GN`, the result `RE`, the players `P0[id "…"]` and `P1[id "…"]`; `header`) and the players'
//! actions on BoardSpace's lettered grid, one a property, `P1[44 Dropb bB2 N 13 wQ/]` (`action`), which the replay
//! follows as BoardSpace's board does (`replay`). docs/records.md describes the format and what is refused.
//!
//! Owns the reading of the format; the rules of play are the position's.

mod action;
mod error;
mod header;
#[cfg(feature = "db")]
pub(crate) use header::MONTHS;
mod replay;
mod syntax;

pub use error::{ActionError, SgfError};

use header::{Kind, Outcome};
use replay::Replay;

use crate::record::notation::GameString;
use crate::record::pgn::GameRecord;
use crate::rules::game_type::GameType;
use crate::rules::piece::Color;
use crate::rules::position::GameState;

/// The game of a BoardSpace record's text (the first game tree, where a file holds more). `file_name`, when the
/// text comes from a file (its path or name), tells a tournament (`T!…`) or unranked (`U!…`) game when the
/// record's own name (`GN`) is empty, as in older records.
///
/// Its tags are Mzinga's, in Mzinga's order: `GameType` (from `SU`), `Date` (`yyyy.MM.dd`, from `DT` or else the
/// game's or the file's name; empty when none says), `Event` (`BoardSpace tournament` or `BoardSpace unranked` for a `T!` or
/// `U!` game, else empty), `Site` (`boardspace.net`), `Round` (empty), `White` and `Black` (the players' names, by
/// the colour each moved), `Result`. The result is what `RE` says (the winner it names, or a draw), else how the
/// actions ended the game (a resignation, a win on time, a draw agreed), else where the moves lead.
pub fn parse(text: &str, file_name: Option<&str>) -> Result<GameRecord, SgfError> {
    let properties = syntax::main_line(text)?;
    let first = |name: &str| {
        properties
            .iter()
            .find(|p| p.name.eq_ignore_ascii_case(name))
            .and_then(|p| p.values.first())
            .map(String::as_str)
    };
    if let Some(game) = first("GM").filter(|game| game.trim() != "27") {
        return Err(SgfError::NotHive {
            property: format!("GM[{game}]"),
        });
    }
    let game_type = match first("SU") {
        Some(variant) => header::game_type(variant)?,
        None if first("GM").is_some() => GameType::BASE,
        None => {
            return Err(SgfError::NotHive {
                property: "neither GM nor SU".to_string(),
            })
        }
    };
    let mut names = [String::new(), String::new()];
    let mut replay = Replay::new(game_type);
    // The last action, to name should the record's end leave a move to play.
    let mut last: Option<(usize, &str, &str)> = None;
    for property in &properties {
        let player = match property.name.as_str() {
            "P0" | "p0" => 0,
            "P1" | "p1" => 1,
            _ => continue,
        };
        for value in &property.values {
            let fault = |reason| SgfError::Action {
                line: property.line,
                player: property.name.clone(),
                text: value.clone(),
                reason,
            };
            match action::read(value).map_err(fault)? {
                action::Value::Action(action) => {
                    replay.act(player, action).map_err(fault)?;
                    last = Some((property.line, &property.name, value));
                }
                action::Value::About(what, rest) if what == "id" && names[usize::from(player)].is_empty() => {
                    names[usize::from(player)] = header::player_name(&rest);
                }
                action::Value::About(..) => {}
            }
        }
    }
    replay.finish().map_err(|reason| {
        let (line, player, text) = last.unwrap_or((0, "", ""));
        SgfError::Action {
            line,
            player: player.to_string(),
            text: text.to_string(),
            reason,
        }
    })?;
    let [white, black] = replay.players();
    let color_of = |player: u8| if player == white { Color::White } else { Color::Black };
    let outcome = first("RE")
        .and_then(|text| header::result(text, [names[0].as_str(), names[1].as_str()]))
        .or(replay.ending());
    let reached = replay.position().state();
    let state = match outcome {
        Some(Outcome::Won(player)) => GameState::won_by(color_of(player)),
        Some(Outcome::Draw) => GameState::Draw,
        None => reached,
    };
    let file_name = file_name.map(|path| path.rsplit(['/', '\\']).next().unwrap_or(path));
    let game_name = first("GN").filter(|name| !name.trim().is_empty()).or(file_name);
    let event = match game_name.map(Kind::of_name) {
        Some(Kind::Tournament) => "BoardSpace tournament",
        Some(Kind::Unranked) => "BoardSpace unranked",
        Some(Kind::Ranked) | None => "",
    };
    let date = header::date(first("DT"), game_name).unwrap_or_default();
    let position = replay.position();
    let turn = Some((position.to_move(), position.turn_number()));
    let record = GameString {
        game_type,
        state: Some(state),
        turn,
        moves: replay.into_moves(),
    };
    let mut game = GameRecord::new(record, &names[usize::from(white)], &names[usize::from(black)]);
    game.set_tag("Date", &date);
    game.set_tag("Event", event);
    game.set_tag("Site", "boardspace.net");
    Ok(game)
}

#[cfg(test)]
mod tests;
