//! What a panic said, as text: for the reports of the places that contain a bug's panic and go on (the engine's
//! commands and searches, the UHP session's own work, a JSON request, a refereed game). Owns no policy: each of
//! those decides what to say around it.

use std::any::Any;

/// The message a panic carried (`panic!("…")` gives a `&str` or a `String`), or a phrase saying it had none.
pub(crate) fn panic_message(panic: &(dyn Any + Send)) -> String {
    match (panic.downcast_ref::<&str>(), panic.downcast_ref::<String>()) {
        (Some(text), _) => text.to_string(),
        (_, Some(text)) => text.clone(),
        _ => "a panic without a message".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_of_each_kind_of_panic() {
        let text = |f: fn()| panic_message(std::panic::catch_unwind(f).unwrap_err().as_ref());
        assert_eq!(text(|| panic!("plain")), "plain");
        assert_eq!(text(|| panic!("{} {}", "formatted", 2)), "formatted 2");
        assert_eq!(text(|| std::panic::panic_any(7_u8)), "a panic without a message");
    }
}
