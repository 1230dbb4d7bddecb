//! Why a request gets an Error response, in words for the person who sent it. Every failure of the JSON front end
//! ends up here, and from here in one place: the `message` of an Error response.

use crate::rules::setup::SetupError;

use super::names::CellName;

/// A request Waggle cannot answer with a turn or a greeting.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    /// The text is not JSON (or nests deeper than the parser follows).
    #[error("the request is not JSON: {0}")]
    NotJson(String),
    /// The bytes are not UTF-8.
    #[error("the request is not UTF-8 text")]
    NotText,
    /// The request is larger than Waggle reads.
    #[error("the request is longer than {0} bytes")]
    TooLong(usize),
    /// The request is JSON, but not an object.
    #[error("the request is not a JSON object")]
    NotObject,
    /// No `request_type`.
    #[error("the request has no request_type: expected \"Greetings\" or \"Choose Turn\"")]
    NoRequestType,
    /// A `request_type` this API does not have.
    #[error("unknown request_type {0}: expected \"Greetings\" or \"Choose Turn\"")]
    UnknownRequest(String),
    /// A field that must be there is not.
    #[error("{0} is missing")]
    Missing(&'static str),
    /// A field that is not what the API says it is.
    #[error("{field}: {message}")]
    Field {
        /// The field, as a path from the request (`game_state`, `request_id` …).
        field: &'static str,
        /// What is wrong with it.
        message: String,
    },
    /// More pieces (or cells) on the board than a game of Hive has pieces.
    #[error("the board holds {0} pieces, but a game has at most 28")]
    TooManyPieces(usize),
    /// The board is no position of Hive.
    #[error("impossible board: {0}")]
    Board(String),
    /// The last turn of the history moved a piece but does not say where to.
    #[error("the last turn of turn_history, a {0}, has no destination")]
    HistoryWithoutDestination(&'static str),
    /// The request itself says the game is over.
    #[error("the game is over (game_over is true): there is no turn to choose")]
    GameOver,
    /// The board shows a finished game: a Queen is surrounded.
    #[error("the game is already over: {0}")]
    Finished(&'static str),
}

impl RequestError {
    /// The error for a board that is no position, its cells named as the API names them.
    pub fn board(error: &SetupError) -> RequestError {
        let cell = |axial| CellName::from_axial(axial);
        RequestError::Board(match *error {
            SetupError::SameCell(at) => format!("the cell {} is listed twice", cell(at)),
            SetupError::EmptyStack(at) => format!("the cell {} has an empty stack", cell(at)),
            SetupError::Disconnected(at) => {
                format!(
                    "the pieces do not form one hive: {} is not connected to the rest",
                    cell(at)
                )
            }
            SetupError::NoLastMover(at) => {
                format!(
                    "the piece that moved last is said to stand at {}, where there is none",
                    cell(at)
                )
            }
            ref other => other.to_string(),
        })
    }
}
