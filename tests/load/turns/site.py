# A local site for measure.sh: 200 for /bob/N and /alice (logged with the time), 404 else.
import http.server, sys, time, threading
log = open(sys.argv[2], "a")
lock = threading.Lock()
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path.startswith("/bob/") or self.path.startswith("/alice"):
            with lock:
                log.write("%.3f %s\n" % (time.time(), self.path)); log.flush()
            body = b"<!doctype html><html lang=en><title>t</title><h1>t</h1></html>"
            self.send_response(200); self.send_header("Content-Type", "text/html; charset=utf-8")
        else:
            body = b"no"; self.send_response(404)
        self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
