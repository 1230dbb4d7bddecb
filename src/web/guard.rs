//! Who may talk to the server: a request must name this server in its `Host` (a page of another site that made
//! its own name resolve to this machine, DNS rebinding, names another host), and a request that carries an
//! `Origin` (every POST a browser sends, and every request a script makes) must come from a page of this server
//! (another page open in the same browser names its own origin). A POST to the API must also say its body is
//! JSON, which a plain form of another site cannot send without the browser asking first.
//!
//! The names this server answers to: the address it listens on; `localhost`, `127.0.0.1` and `[::1]` when that is
//! a loopback address or every interface; when it listens on every interface (`0.0.0.0`, `[::]`), also each
//! address of the machine a request came in by (an address is no name another site can own) and the machine's own
//! name (`NAME`, `NAME.local`); and any name given with `--allow-host` (the name a load balancer is reached by).

use std::net::{IpAddr, SocketAddr};

use hyper::header::{HOST, ORIGIN};
use hyper::HeaderMap;

use super::error::WebError;

/// The hosts (`name:port` or `name`, in lower case) a request may name.
#[derive(Clone, Debug, Default)]
pub(crate) struct Hosts {
    allowed: Vec<String>,
    /// The port of a server listening on every interface, which answers to each address it is reached by.
    every_interface: Option<u16>,
}

/// The name of this machine, as other devices on its network may know it: its host name, and that name under
/// `.local` (as multicast DNS gives it), in lower case. None where the system does not say.
pub fn machine_names() -> Vec<String> {
    let name = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .ok()
        .or_else(|| std::env::var("COMPUTERNAME").ok())
        .unwrap_or_default();
    let name = name.trim().to_ascii_lowercase();
    if name.is_empty() || name == "localhost" {
        return Vec::new();
    }
    if name.ends_with(".local") {
        return vec![name];
    }
    vec![name.clone(), format!("{name}.local")]
}

impl Hosts {
    /// The names of a server bound to `addr`, with `extra` names (each `name` or `name:port`) and the machine's own
    /// `names` (answered to when it listens on every interface).
    pub(crate) fn new(addr: SocketAddr, extra: &[String], names: &[String]) -> Hosts {
        let port = addr.port();
        let mut allowed = vec![format!("{addr}")];
        let every = addr.ip().is_unspecified();
        if addr.ip().is_loopback() || every {
            allowed.push(format!("localhost:{port}"));
            allowed.push(format!("127.0.0.1:{port}"));
            allowed.push(format!("[::1]:{port}"));
        }
        if every {
            allowed.extend(names.iter().map(|name| format!("{name}:{port}")));
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
        if port == 80 {
            // A browser leaves the default port out.
            let bare: Vec<String> = allowed
                .iter()
                .filter_map(|host| host.strip_suffix(":80"))
                .map(String::from)
                .collect();
            allowed.extend(bare);
        }
        Hosts {
            allowed,
            every_interface: every.then_some(port),
        }
    }

    /// Whether `host` (a Host header's value, or an Origin's host) names this server, for a request that came in on
    /// the local address `reached`.
    fn allows(&self, host: &str, reached: Option<SocketAddr>) -> bool {
        let host = host.trim().to_ascii_lowercase();
        if self.allowed.contains(&host) {
            return true;
        }
        match (self.every_interface, reached) {
            (Some(port), Some(reached)) => {
                let ip = match reached.ip() {
                    IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
                    v4 => v4,
                };
                let own = SocketAddr::new(ip, port).to_string();
                host == own || (port == 80 && own.strip_suffix(":80") == Some(host.as_str()))
            }
            _ => false,
        }
    }

    /// Check a request's `Host` and `Origin`; `reached` is the local address its connection came in on.
    pub(crate) fn check(&self, headers: &HeaderMap, reached: Option<SocketAddr>) -> Result<(), WebError> {
        let host = headers
            .get(HOST)
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| WebError::Forbidden("the request names no Host".into()))?;
        if !self.allows(host, reached) {
            return Err(WebError::Host(host.trim().to_string()));
        }
        if let Some(origin) = headers.get(ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            // https: for a server reached through a load balancer that speaks TLS.
            let own = origin
                .strip_prefix("http://")
                .or_else(|| origin.strip_prefix("https://"))
                .is_some_and(|host| self.allows(host, reached));
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
        let hosts = Hosts::new("127.0.0.1:8080".parse().unwrap(), &[], &["hive-box".into()]);
        assert!(hosts.check(&headers(Some("127.0.0.1:8080"), None), None).is_ok());
        assert!(hosts
            .check(&headers(Some("LOCALHOST:8080"), Some("http://localhost:8080")), None)
            .is_ok());
        assert!(hosts.check(&headers(None, None), None).is_err());
        assert!(
            hosts.check(&headers(Some("evil.example:8080"), None), None).is_err(),
            "DNS rebinding"
        );
        assert!(
            hosts.check(&headers(Some("hive-box:8080"), None), None).is_err(),
            "a loopback server is not the machine's to other devices"
        );
        assert!(hosts.check(&headers(Some("127.0.0.1:8081"), None), None).is_err());
        assert!(hosts
            .check(&headers(Some("127.0.0.1:8080"), Some("http://evil.example")), None)
            .is_err());
        assert!(hosts
            .check(&headers(Some("127.0.0.1:8080"), Some("null")), None)
            .is_err());
        let named = Hosts::new("0.0.0.0:80".parse().unwrap(), &["Hive.Example.org".into()], &[]);
        assert!(named
            .check(
                &headers(Some("hive.example.org"), Some("https://hive.example.org")),
                None
            )
            .is_ok());
        assert!(named.check(&headers(Some("localhost"), None), None).is_ok());
        assert!(named.check(&headers(Some("evil.example"), None), None).is_err());
    }

    #[test]
    fn every_interface_answers_to_the_machine_s_own_addresses_and_names() {
        let names = ["hive-box".to_string(), "hive-box.local".to_string()];
        let hosts = Hosts::new("0.0.0.0:8080".parse().unwrap(), &[], &names);
        let lan: SocketAddr = "192.168.1.20:8080".parse().unwrap();
        for host in [
            "127.0.0.1:8080",
            "localhost:8080",
            "hive-box:8080",
            "HIVE-BOX.local:8080",
        ] {
            assert!(hosts.check(&headers(Some(host), None), Some(lan)).is_ok(), "{host}");
        }
        // The address the request came in by is the machine's own.
        let mut own = headers(None, None);
        own.insert(HOST, HeaderValue::from_static("192.168.1.20:8080"));
        own.insert(ORIGIN, HeaderValue::from_static("http://192.168.1.20:8080"));
        assert!(hosts.check(&own, Some(lan)).is_ok());
        // Reached over IPv6 as an IPv4-mapped address (a server on [::]).
        let mapped: SocketAddr = "[::ffff:192.168.1.20]:8080".parse().unwrap();
        assert!(hosts.check(&own, Some(mapped)).is_ok());
        // Another address, another port, a name that is not the machine's: refused, and the refusal names the host.
        assert!(hosts
            .check(&headers(Some("192.168.1.21:8080"), None), Some(lan))
            .is_err());
        assert!(hosts
            .check(&headers(Some("192.168.1.20:8081"), None), Some(lan))
            .is_err());
        assert_eq!(
            hosts.check(&headers(Some("evil.example:8080"), None), Some(lan)),
            Err(WebError::Host("evil.example:8080".into()))
        );
        let v6 = Hosts::new("[::]:8080".parse().unwrap(), &[], &[]);
        let reached: SocketAddr = "[fe80::1]:8080".parse().unwrap();
        assert!(v6.check(&headers(Some("[fe80::1]:8080"), None), Some(reached)).is_ok());
        assert!(v6.check(&headers(Some("[::1]:8080"), None), Some(reached)).is_ok());
    }
}
