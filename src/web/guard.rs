//! Who may talk to the server: a request must name this server in its `Host` (a page of another site that made
//! its own name resolve to 127.0.0.1, DNS rebinding, names another host), and a request that carries an `Origin`
//! (every POST a browser sends, and every request a script makes) must come from a page of this server (another
//! page open in the same browser names its own origin). A POST to the API must also say its body is JSON, which a
//! plain form of another site cannot send without the browser asking first.
//!
//! The names this server answers to: the address it listens on, `localhost` when that is a loopback address, and
//! any name given with `--allow-host` (the name a load balancer is reached by).

use std::net::SocketAddr;

use hyper::header::{HOST, ORIGIN};
use hyper::HeaderMap;

use super::error::WebError;

/// The hosts (`name:port` or `name`, in lower case) a request may name.
#[derive(Clone, Debug, Default)]
pub(crate) struct Hosts {
    allowed: Vec<String>,
}

impl Hosts {
    /// The names of a server bound to `addr`, with `extra` names (each `name` or `name:port`).
    pub(crate) fn new(addr: SocketAddr, extra: &[String]) -> Hosts {
        let port = addr.port();
        let mut allowed = vec![format!("{addr}")];
        if addr.ip().is_loopback() {
            allowed.push(format!("localhost:{port}"));
            allowed.push(format!("127.0.0.1:{port}"));
            allowed.push(format!("[::1]:{port}"));
        }
        for name in extra {
            let name = name.trim().to_ascii_lowercase();
            if name.contains(':') && !name.starts_with('[') {
                allowed.push(name);
            } else {
                allowed.push(format!("{name}:{port}"));
                allowed.push(name);
            }
        }
        Hosts { allowed }
    }

    /// Whether `host` (a Host header's value) names this server.
    fn allows(&self, host: &str) -> bool {
        let host = host.trim().to_ascii_lowercase();
        self.allowed.contains(&host)
    }

    /// Check a request's `Host` and `Origin`.
    pub(crate) fn check(&self, headers: &HeaderMap) -> Result<(), WebError> {
        let host = headers
            .get(HOST)
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| WebError::Forbidden("the request names no Host".into()))?;
        if !self.allows(host) {
            return Err(WebError::Forbidden(format!(
                "this server does not answer to the host {host}: open it by its own address (or start it with \
                 --allow-host NAME)"
            )));
        }
        if let Some(origin) = headers.get(ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            // https: for a server reached through a load balancer that speaks TLS.
            let own = origin
                .strip_prefix("http://")
                .or_else(|| origin.strip_prefix("https://"))
                .is_some_and(|host| self.allows(host));
            if !own {
                return Err(WebError::Forbidden(format!(
                    "requests from pages of {origin} are refused: only this server's own page may use its API"
                )));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::header::HeaderValue;

    fn headers(host: Option<&'static str>, origin: Option<&'static str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Some(host) = host {
            headers.insert(HOST, HeaderValue::from_static(host));
        }
        if let Some(origin) = origin {
            headers.insert(ORIGIN, HeaderValue::from_static(origin));
        }
        headers
    }

    #[test]
    fn only_this_server_s_names_and_pages_pass() {
        let hosts = Hosts::new("127.0.0.1:8080".parse().unwrap(), &[]);
        assert!(hosts.check(&headers(Some("127.0.0.1:8080"), None)).is_ok());
        assert!(hosts
            .check(&headers(Some("LOCALHOST:8080"), Some("http://localhost:8080")))
            .is_ok());
        assert!(hosts.check(&headers(None, None)).is_err());
        assert!(
            hosts.check(&headers(Some("evil.example:8080"), None)).is_err(),
            "DNS rebinding"
        );
        assert!(hosts.check(&headers(Some("127.0.0.1:8081"), None)).is_err());
        assert!(hosts
            .check(&headers(Some("127.0.0.1:8080"), Some("http://evil.example")))
            .is_err());
        assert!(hosts.check(&headers(Some("127.0.0.1:8080"), Some("null"))).is_err());
        let named = Hosts::new("0.0.0.0:80".parse().unwrap(), &["Hive.Example.org".into()]);
        assert!(named
            .check(&headers(Some("hive.example.org"), Some("https://hive.example.org")))
            .is_ok());
        assert!(named.check(&headers(Some("localhost:80"), None)).is_err());
    }
}
