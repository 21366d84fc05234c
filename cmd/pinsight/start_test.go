package main

import (
	"net"
	"strings"
	"testing"
	"time"
)

// TestServeStartIsBounded: a database that accepts connections but never
// answers cannot hold serve's start longer than --start-timeout, whatever
// the connect timeout.
func TestServeStartIsBounded(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	conns := make(chan net.Conn, 16)
	defer func() {
		ln.Close()
		for len(conns) > 0 {
			(<-conns).Close()
		}
	}()
	go func() { // accept and stay silent
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			select {
			case conns <- c:
			default:
				c.Close()
			}
		}
	}()
	begin := time.Now()
	_, err = run(t, "serve", "--addr", "127.0.0.1:0", "--log-level", "error",
		"--database-url", "postgres://u:p@"+ln.Addr().String()+"/db?sslmode=disable",
		"--database-connect-timeout", "1m", "--start-timeout", "300ms")
	took := time.Since(begin)
	if err == nil || took > 20*time.Second || !strings.Contains(err.Error(), "--start-timeout") {
		t.Fatalf("serve against a silent database = %v after %s, want an error naming --start-timeout", err, took)
	}
	t.Logf("start gave up after %s: %v", took, err)
}
