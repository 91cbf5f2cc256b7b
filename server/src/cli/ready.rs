//! `gapwise ready`: asks a running server's /readyz, for a container's health check
//! (the image has no curl).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// Whether the server at `addr` answers /readyz with 200 within 3 seconds; an
/// unspecified address (0.0.0.0, ::) is asked on loopback.
pub(super) fn ready(mut addr: SocketAddr) -> Result<(), crate::error::CliError> {
    if addr.ip().is_unspecified() {
        addr.set_ip(if addr.is_ipv4() { [127, 0, 0, 1].into() } else { std::net::Ipv6Addr::LOCALHOST.into() });
    }
    let wait = Duration::from_secs(3);
    let mut stream = TcpStream::connect_timeout(&addr, wait)?;
    stream.set_read_timeout(Some(wait))?;
    stream.write_all(b"GET /readyz HTTP/1.0\r\nHost: localhost\r\n\r\n")?;
    let mut answer = String::new();
    stream.take(4096).read_to_string(&mut answer)?;
    match answer.lines().next() {
        Some(status) if status.split_whitespace().nth(1) == Some("200") => Ok(()),
        status => Err(format!("{addr}/readyz answered {:?}", status.unwrap_or("nothing")).into()),
    }
}
