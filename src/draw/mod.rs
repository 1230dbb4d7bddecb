//! Pictures of a position for people: where each cell goes on a page (`layout`), and the board drawn as text
//! (`text`). Front ends choose which picture to show and where.

mod layout;
mod text;

pub use layout::{Layout, Placed};
pub use text::board_text;
