# The link bomb for measure.sh (issue 38): / is one page of 190,000
# same-site links (about 5 MiB); /p/N are small pages linking nowhere;
# /slow/N answer after 3 s (the crawl that is cancelled).
import http.server, sys, time
N = 190_000
BOMB = ("<!doctype html><html lang=en><head><title>Bomb</title></head><body><h1>Bomb</h1>"
        + "".join('<a href="/p/%d">%d</a>\n' % (i, i) for i in range(N)) + "</body></html>").encode()
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        if self.path == "/":
            body = BOMB
        elif self.path.startswith("/p/") or self.path.startswith("/slow/"):
            if self.path.startswith("/slow/"):
                time.sleep(3)
            body = ('<!doctype html><html lang=en><title>%s</title><h1>%s</h1><a href="/slow/%d">next</a></html>'
                    % (self.path, self.path, hash(self.path) % 100000)).encode()
        else:
            self.send_response(404); self.send_header("Content-Length", "0"); self.end_headers(); return
        self.send_response(200); self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
