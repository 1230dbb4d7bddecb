//! What the session says of itself: the `info` block and the `help` text.

use crate::uhp::CLOCK_CAPABILITY;

/// The `info` block: the id line and the capabilities line (the expansion bugs, and the clock-aware search).
pub(super) fn info_lines() -> Vec<String> {
    vec![
        format!("id Waggle v{}", env!("CARGO_PKG_VERSION")),
        format!("Mosquito;Ladybug;Pillbug;{CLOCK_CAPABILITY}"),
    ]
}

/// The `help` reply's lines.
pub(super) fn help_lines() -> Vec<String> {
    HELP.trim().lines().map(String::from).collect()
}

const HELP: &str = "
UHP commands:
  info                          engine id and capabilities
  newgame [GameType|GameString] start a game (Base, Base+MLP …) or load one; prints the GameString
  play MoveString               play a move (wS1, bA1 wS1-, wB1 bQ …); prints the GameString
  pass                          pass (only when nothing else is legal)
  validmoves                    every legal move, ';'-separated
  bestmove time hh:mm:ss        best move found within the time
  bestmove depth N              best move of an N-ply search
  undo [N]                      take back N moves (default 1)
  options                       list options; 'options get Name', 'options set Name Value'
  exit                          leave the engine ('quit' too)
Extra commands:
  bestmove nodes N              best move of a search of N nodes (repeatable, like a depth)
  bestmove clock A B C D        best move on a chess clock: own time left, own increment, the opponent's time
                                left and increment, each hh:mm:ss[.fffffff]; the engine budgets the move itself
  analyze N [LIMIT]             the N best moves, best first, one 'Move;Depth;Score;PV…' line each; LIMIT is
                                'time hh:mm:ss', 'depth D' or 'nodes K', and without one it runs until 'stop'
  stop                          end a running bestmove or analyze (it answers at once); other lines sent
                                during a search wait and run after it, in order
  help                          this list
  perft N                       count move sequences to depth N from the current position
  board                         draw the current position
  history                       the moves played, numbered
";
