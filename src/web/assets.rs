//! The page, embedded in the binary at build time: HTML, CSS, plain ES modules (no build step) and the icon. Nothing
//! is fetched from anywhere else, so the page works offline.

/// One embedded file.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Asset {
    /// Where it is served.
    pub(crate) path: &'static str,
    /// Its `Content-Type`.
    pub(crate) content_type: &'static str,
    /// Its bytes.
    pub(crate) bytes: &'static [u8],
}

const JS: &str = "text/javascript; charset=utf-8";

/// Every file of the page.
pub(crate) const ASSETS: &[Asset] = &[
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        bytes: include_bytes!("page/index.html"),
    },
    Asset {
        path: "/style.css",
        content_type: "text/css; charset=utf-8",
        bytes: include_bytes!("page/style.css"),
    },
    Asset {
        path: "/explorer.css",
        content_type: "text/css; charset=utf-8",
        bytes: include_bytes!("page/explorer.css"),
    },
    Asset {
        path: "/favicon.svg",
        content_type: "image/svg+xml",
        bytes: include_bytes!("page/favicon.svg"),
    },
    Asset {
        path: "/main.js",
        content_type: JS,
        bytes: include_bytes!("page/main.js"),
    },
    Asset {
        path: "/app.js",
        content_type: JS,
        bytes: include_bytes!("page/app.js"),
    },
    Asset {
        path: "/api.js",
        content_type: JS,
        bytes: include_bytes!("page/api.js"),
    },
    Asset {
        path: "/pieces.js",
        content_type: JS,
        bytes: include_bytes!("page/pieces.js"),
    },
    Asset {
        path: "/board.js",
        content_type: JS,
        bytes: include_bytes!("page/board.js"),
    },
    Asset {
        path: "/moves.js",
        content_type: JS,
        bytes: include_bytes!("page/moves.js"),
    },
    Asset {
        path: "/play.js",
        content_type: JS,
        bytes: include_bytes!("page/play.js"),
    },
    Asset {
        path: "/analysis.js",
        content_type: JS,
        bytes: include_bytes!("page/analysis.js"),
    },
    Asset {
        path: "/review.js",
        content_type: JS,
        bytes: include_bytes!("page/review.js"),
    },
    Asset {
        path: "/io.js",
        content_type: JS,
        bytes: include_bytes!("page/io.js"),
    },
    Asset {
        path: "/tree.js",
        content_type: JS,
        bytes: include_bytes!("page/tree.js"),
    },
    Asset {
        path: "/chart.js",
        content_type: JS,
        bytes: include_bytes!("page/chart.js"),
    },
    Asset {
        path: "/keys.js",
        content_type: JS,
        bytes: include_bytes!("page/keys.js"),
    },
    Asset {
        path: "/explorer.js",
        content_type: JS,
        bytes: include_bytes!("page/explorer.js"),
    },
    Asset {
        path: "/puzzles.js",
        content_type: JS,
        bytes: include_bytes!("page/puzzles.js"),
    },
    // The bugs, as `waggle draw --svg` draws them: one picture of a piece in the project.
    Asset {
        path: "/bugs.svg",
        content_type: "image/svg+xml",
        bytes: crate::draw::BUGS_SVG.as_bytes(),
    },
];

/// The file served at `path`, if any (`/index.html` is the page too).
pub(crate) fn find(path: &str) -> Option<&'static Asset> {
    let path = if path == "/index.html" { "/" } else { path };
    ASSETS.iter().find(|asset| asset.path == path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_is_small_and_asks_nothing_of_other_hosts() {
        let total: usize = ASSETS.iter().map(|asset| asset.bytes.len()).sum();
        assert!(total < 300 * 1024, "the embedded page is {total} bytes");
        for asset in ASSETS {
            let text = std::str::from_utf8(asset.bytes).unwrap();
            for scheme in ["http://", "https://", "//cdn", "@import"] {
                // The SVG namespace is a name, not a request.
                let found = text.replace("http://www.w3.org/2000/svg", "");
                assert!(!found.contains(scheme), "{} names {scheme}", asset.path);
            }
        }
    }
}
