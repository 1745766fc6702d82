"""A minimal OGC API Features server on 127.0.0.1 for the URL-input tests: one collection of GeoJSON features.

Run as a separate process (`python tests/ogc_api_server.py FEATURES.geojson`): GDAL reads with the GIL held, so a
server thread inside the test process could not answer it. Prints its port on the first line."""

from __future__ import annotations

import http.server
import json
import sys


def serve(features_path: str) -> None:
    features = json.loads(open(features_path, encoding="utf-8").read())

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):  # keep test output clean
            pass

        def do_GET(self):  # noqa: N802 - http.server API
            base = f"http://127.0.0.1:{self.server.server_port}"
            items = {"rel": "items", "type": "application/geo+json", "href": base + "/collections/wells/items"}
            path = self.path.split("?")[0].rstrip("/")
            if path.endswith("/collections/wells/items"):
                body = dict(features, numberMatched=len(features["features"]), links=[])
            elif path.endswith("/conformance"):
                core = "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/"
                body = {"conformsTo": [core + "core", core + "geojson"]}
            elif path.endswith("/collections/wells"):
                body = {"id": "wells", "title": "wells", "links": [items]}
            elif path.endswith("/collections"):
                body = {"collections": [{"id": "wells", "links": [items]}], "links": []}
            elif path == "":
                kind = "application/json"
                body = {"links": [{"rel": "conformance", "href": base + "/conformance", "type": kind},
                                  {"rel": "data", "href": base + "/collections", "type": kind}]}  # fmt: skip
            else:
                self.send_error(404)
                return
            data = json.dumps(body).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/geo+json" if "features" in body else "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_port, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    serve(sys.argv[1])
