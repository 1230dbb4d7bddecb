//! The syntax of an SGF file: game trees of nodes, each node a list of properties (`DT[…]`, `P0[…]`), each property
//! one or more bracketed values with `\` escaping the next character. No meaning is given to any property here.
//!
//! Owns the reading of the text only. BoardSpace writes one game a file, a tree without variations; where a file
//! holds more (several game trees, variations), the first game tree's main line is the game.

use super::error::SgfError;

/// A property of a node: its name and values, unescaped, and the line its name stands on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Property {
    /// The property's name as written (`DT`, `P0`, `P-1`).
    pub(super) name: String,
    /// Its values, each without its brackets and with its escapes undone.
    pub(super) values: Vec<String>,
    /// The line (counted from 1) where the name stands.
    pub(super) line: usize,
}

/// The properties of the main line of the first game tree of `text`, node after node, in file order. Text before
/// the first `(` is skipped (BoardSpace starts its files with a blank), and so is everything after the first game
/// tree's closing `)`.
pub(super) fn main_line(text: &str) -> Result<Vec<Property>, SgfError> {
    let mut reader = Reader {
        chars: text.char_indices().peekable(),
        line: 1,
    };
    loop {
        match reader.next() {
            None => return Err(SgfError::NoGameTree),
            Some('(') => break,
            Some(_) => {}
        }
    }
    let mut properties = Vec::new();
    reader.game_tree(&mut properties, true)?;
    Ok(properties)
}

/// The text being read, and the line it has reached.
struct Reader<'a> {
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
    line: usize,
}

impl Reader<'_> {
    /// The next character, counting lines.
    fn next(&mut self) -> Option<char> {
        let (_, c) = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    /// The next character that is not a blank, not taken.
    fn peek_past_blanks(&mut self) -> Option<char> {
        while let Some(&(_, c)) = self.chars.peek() {
            if !c.is_whitespace() {
                return Some(c);
            }
            self.next();
        }
        None
    }

    /// A game tree whose `(` has been read, up to and with its `)`: its nodes' properties added to `properties`
    /// when `keep` (the main line), only read otherwise (a variation).
    fn game_tree(&mut self, properties: &mut Vec<Property>, keep: bool) -> Result<(), SgfError> {
        let opened = self.line;
        if self.peek_past_blanks() != Some(';') {
            return Err(SgfError::Syntax {
                line: self.line,
                reason: "a game tree must start with a node, ';'".to_string(),
            });
        }
        let mut first_child = true;
        loop {
            match self.peek_past_blanks() {
                None => {
                    return Err(SgfError::Syntax {
                        line: opened,
                        reason: "the game tree opened here is never closed with ')'".to_string(),
                    })
                }
                Some(';') => {
                    self.next();
                    self.node(properties, keep)?;
                }
                Some('(') => {
                    self.next();
                    // The first variation continues the main line; the others are read past.
                    self.game_tree(properties, keep && first_child)?;
                    first_child = false;
                }
                Some(')') => {
                    self.next();
                    return Ok(());
                }
                Some(other) => {
                    return Err(SgfError::Syntax {
                        line: self.line,
                        reason: format!("'{other}' stands where a node (';'), a variation or ')' should"),
                    })
                }
            }
        }
    }

    /// The properties of a node whose `;` has been read.
    fn node(&mut self, properties: &mut Vec<Property>, keep: bool) -> Result<(), SgfError> {
        loop {
            match self.peek_past_blanks() {
                None | Some(';' | '(' | ')') => return Ok(()),
                Some(_) => {
                    let property = self.property()?;
                    if keep {
                        properties.push(property);
                    }
                }
            }
        }
    }

    /// A property: a name and at least one value.
    fn property(&mut self) -> Result<Property, SgfError> {
        let line = self.line;
        let mut name = String::new();
        while let Some(&(_, c)) = self.chars.peek() {
            if c.is_whitespace() || matches!(c, '[' | ']' | ';' | '(' | ')') {
                break;
            }
            name.push(c);
            self.next();
        }
        if name.is_empty() {
            return Err(SgfError::Syntax {
                line,
                reason: "a value stands without a property name before it".to_string(),
            });
        }
        let mut values = Vec::new();
        while self.peek_past_blanks() == Some('[') {
            self.next();
            values.push(self.value(line, &name)?);
        }
        if values.is_empty() {
            return Err(SgfError::Syntax {
                line,
                reason: format!("the property '{}' has no value in brackets", shortened(&name)),
            });
        }
        Ok(Property { name, values, line })
    }

    /// A value whose `[` has been read, up to its `]`: `\` keeps the next character as it is (a `\` and a line
    /// break together are no text at all, SGF's soft line break).
    fn value(&mut self, line: usize, name: &str) -> Result<String, SgfError> {
        let mut value = String::new();
        loop {
            match self.next() {
                None => {
                    return Err(SgfError::Syntax {
                        line,
                        reason: format!(
                            "the value of '{}' opened here is never closed with ']'",
                            shortened(name)
                        ),
                    })
                }
                Some(']') => return Ok(value),
                Some('\\') => match self.next() {
                    None => {
                        return Err(SgfError::Syntax {
                            line,
                            reason: format!(
                                "the value of '{}' opened here is never closed with ']'",
                                shortened(name)
                            ),
                        })
                    }
                    Some('\r') => {
                        if self.chars.peek().map(|&(_, c)| c) == Some('\n') {
                            self.next();
                        }
                    }
                    Some('\n') => {}
                    Some(c) => value.push(c),
                },
                Some(c) => value.push(c),
            }
        }
    }
}

/// `text` cut to its first 20 characters, for a message.
pub(super) fn shortened(text: &str) -> String {
    match text.char_indices().nth(20) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<(String, Vec<String>, usize)> {
        main_line(text)
            .unwrap_or_else(|e| panic!("{e}: {text}"))
            .into_iter()
            .map(|p| (p.name, p.values, p.line))
            .collect()
    }

    #[test]
    fn properties_come_in_file_order_with_their_escapes_undone() {
        let read = names(" (;GM[27]VV[1]\nSU[hive-lm]\n; P0[1 Dropb wQ N 13 \\\\wA1]TM[5] ;P1[a\\]b][c]\n)\n(;GM[1])");
        let expected = [
            ("GM", vec!["27"], 1),
            ("VV", vec!["1"], 1),
            ("SU", vec!["hive-lm"], 2),
            ("P0", vec!["1 Dropb wQ N 13 \\wA1"], 3),
            ("TM", vec!["5"], 3),
            ("P1", vec!["a]b", "c"], 3),
        ];
        let expected: Vec<(String, Vec<String>, usize)> = expected
            .into_iter()
            .map(|(n, v, l)| (n.to_string(), v.into_iter().map(String::from).collect(), l))
            .collect();
        assert_eq!(read, expected);
    }

    #[test]
    fn variations_after_the_first_are_read_past() {
        let read = names("(;A[1](;B[2];C[3](;D[4])(;E[5]))(;F[6]))");
        let kept: Vec<&str> = read.iter().map(|(n, _, _)| n.as_str()).collect();
        assert_eq!(kept, ["A", "B", "C", "D"]);
        assert_eq!(names("(;A[x\\\ny])")[0].1, ["xy"], "a soft line break is no text");
    }

    #[test]
    fn broken_text_is_named_with_its_line() {
        let error = |text: &str| main_line(text).unwrap_err();
        assert_eq!(error("no tree here"), SgfError::NoGameTree);
        assert_eq!(error(""), SgfError::NoGameTree);
        for (text, line, says) in [
            ("(A[1])", 1, "must start with a node"),
            ("(;A[1]\n;B[2]", 1, "never closed with ')'"),
            ("(;A[1]\n;B[2\n)", 2, "value of 'B' opened here is never closed"),
            ("(;A[1]\n;B[2\\", 2, "never closed with ']'"),
            ("(;A[1]\n;B)", 2, "'B' has no value"),
            ("(;A[1]\n;[2])", 2, "without a property name"),
            ("(;A[1]] )", 1, "without a property name"),
        ] {
            match error(text) {
                SgfError::Syntax { line: at, reason } => {
                    assert_eq!(at, line, "{text:?}: {reason}");
                    assert!(reason.contains(says), "{text:?}: {reason}");
                }
                other => panic!("{text:?}: {other:?}"),
            }
        }
    }
}
