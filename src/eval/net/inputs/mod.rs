//! The network's inputs: how a position becomes the features that turn on rows of input weights.

mod queen_relative;
pub(crate) use queen_relative::*;
