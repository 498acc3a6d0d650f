package cli

import (
	"net"
	"strconv"
	"strings"
)

// deriveBaseURL returns http://host:port for a server that was asked to
// listen on addr and bound bound. The host is the one asked for, or a
// loopback name when that was empty or a wildcard; the port is the one
// bound, so that port 0 resolves to the real port.
func deriveBaseURL(addr string, bound net.Addr) string {
	host, port, _ := net.SplitHostPort(addr)
	if tcp, ok := bound.(*net.TCPAddr); ok {
		port = strconv.Itoa(tcp.Port)
	}
	switch strings.Trim(host, "[]") {
	case "", "0.0.0.0":
		host = "127.0.0.1"
	case "::":
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}
