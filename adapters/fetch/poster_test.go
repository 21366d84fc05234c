package fetch_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/domain/webhook"
)

// TestPosterWire: a webhook message arrives as a POST of its body as JSON,
// with the signature, event and delivery id in the headers receivers read,
// and Post returns the status the endpoint answered.
func TestPosterWire(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan string, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			got <- err.Error()
			return
		}
		defer c.Close()
		req, err := http.ReadRequest(bufio.NewReader(c))
		if err != nil {
			got <- err.Error()
			return
		}
		body, _ := io.ReadAll(req.Body)
		var b strings.Builder
		b.WriteString(req.Method + " " + req.RequestURI + "\n")
		_ = req.Header.WriteSubset(&b, nil)
		b.WriteString(string(body))
		got <- b.String()
		_, _ = io.WriteString(c, "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
	}()
	url := "http://" + ln.Addr().String() + "/hook?x=1"
	p, err := fetch.NewPoster(fetch.Config{AllowTargets: []string{hostPort(t, url)}, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	body := `{"event":"report.finished"}`
	sig := webhook.Signature("0123456789abcdef", time.Unix(1700000000, 0), []byte(body))
	status, err := p.Post(context.Background(), url, webhook.Message{Event: webhook.EventReportFinished, DeliveryID: 42, Signature: sig, Body: []byte(body)})
	if err != nil || status != http.StatusAccepted {
		t.Fatalf("Post = %d, %v; want 202", status, err)
	}
	want := "POST /hook?x=1\n" +
		"Accept-Encoding: gzip\r\n" +
		"Content-Length: " + strconv.Itoa(len(body)) + "\r\n" +
		"Content-Type: application/json\r\n" +
		"Pinsight-Delivery: 42\r\n" +
		"Pinsight-Event: report.finished\r\n" +
		"Pinsight-Signature: " + sig + "\r\n" +
		"User-Agent: Pinsight-Webhook/1\r\n" + body
	if g := <-got; g != want {
		t.Errorf("the endpoint received\n%q\nwant\n%q", g, want)
	}
}
