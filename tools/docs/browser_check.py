#!/usr/bin/env python3
"""Opens the course site in headless Chromium, as a reader would: the main page, every lesson
page, the other pages of docs/ and the kit's API index, served over HTTP from the built HTML.
Fails if a page or one of its pictures (or style sheets) does not load, or if the main page does
not list the lessons in order. Writes a screenshot of each page.

Talks to Chromium over its DevTools pipe (--remote-debugging-pipe), with the standard library
only. Exits 77 (a skip) when Chromium is not installed."""

import argparse
import base64
import fcntl
import functools
import http.server
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from docs_common import lessons, markdown_documents

SKIP = 77
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
         "--hide-scrollbars", "--mute-audio", "--remote-debugging-pipe"]
WIDTH, HEIGHT = 1280, 1200
CHECKED_TYPES = {"Document", "Image", "Stylesheet", "Script"}
PAGE_STATE = """JSON.stringify({
  title: document.title,
  images: Array.from(document.images).map(i => ({src: i.getAttribute('src'), url: i.currentSrc,
                                                  complete: i.complete, width: i.naturalWidth})),
  links: Array.from(document.querySelectorAll('.contents a')).map(a => a.getAttribute('href'))
})"""


class Browser:
    """Chromium with a DevTools session on one tab."""

    def __init__(self, chromium: str, profile: str):
        to_child_r, self._w = os.pipe()
        self._r, from_child_w = os.pipe()
        # Chromium reads commands on fd 3 and writes replies on fd 4: move the child's ends
        # out of the way (to free descriptors above 10), then onto 3 and 4 in the child.
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (to_child_r, from_child_w)]
        os.close(to_child_r)
        os.close(from_child_w)

        def child_fds():
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)

        self.proc = subprocess.Popen([chromium, *FLAGS, f"--user-data-dir={profile}",
                                      "about:blank"], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     preexec_fn=child_fds, close_fds=False)
        for fd in high:
            os.close(fd)
        self._next = 0
        self._replies = {}
        self.events = queue.Queue()
        self._cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]

    def _read(self):
        buf = b""
        while True:
            chunk = os.read(self._r, 1 << 16)
            if not chunk:
                with self._cond:
                    self._replies[-1] = None
                    self._cond.notify_all()
                return
            buf += chunk
            while b"\0" in buf:
                raw, buf = buf.split(b"\0", 1)
                msg = json.loads(raw)
                if "id" in msg:
                    with self._cond:
                        self._replies[msg["id"]] = msg
                        self._cond.notify_all()
                else:
                    self.events.put(msg)

    def call(self, method, params=None, session=None, timeout=60):
        self._next += 1
        msg = {"id": self._next, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._next not in self._replies:
                if -1 in self._replies:
                    raise RuntimeError("Chromium closed its DevTools pipe")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise RuntimeError(f"Chromium did not answer {method} in {timeout} s")
                self._cond.wait(left)
            reply = self._replies.pop(self._next)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error'].get('message')}")
        return reply.get("result", {})

    def page(self, method, params=None, timeout=60):
        return self.call(method, params, self.session, timeout)

    def close(self):
        try:
            self.call("Browser.close", timeout=10)
        except RuntimeError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    misses = []

    def log_message(self, *args):
        pass

    def log_request(self, code="-", size="-"):
        # Browsers ask for /favicon.ico on their own; the site has none.
        if str(code).isdigit() and int(code) >= 400 and self.path != "/favicon.ico":
            QuietHandler.misses.append(f"{self.path} ({code})")


def pages_to_open(root: str):
    """(title, file) of every page the check opens: main page, lessons, docs pages, API."""
    pages = [("main page", "index.html")]
    pages += [(f"lesson {l.number}", f"{l.label}.html") for l in lessons(root)]
    for doc in markdown_documents(root):
        m = re.fullmatch(r"docs/([A-Za-z0-9_]+)\.md", doc)
        if m and m.group(1) != "mainpage":
            pages.append((f"page {m.group(1)}", f"{m.group(1)}.html"))
    pages += [("kit API: files", "files.html"), ("kit API: classes", "annotated.html")]
    return pages


def check_page(browser: Browser, base: str, name: str, file: str, shot: str):
    problems = []
    while not browser.events.empty():
        browser.events.get_nowait()
    nav = browser.page("Page.navigate", {"url": f"{base}/{file}"})
    if nav.get("errorText"):
        return [f"{name} ({file}): did not load: {nav['errorText']}"], None
    # Wait for the load event, then for the network to stay quiet for a moment (the pages'
    # scripts add pictures of their own after the load event).
    requests, pending, failed = {}, set(), []
    loaded, quiet_since = False, None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            ev = browser.events.get(timeout=0.1)
        except queue.Empty:
            if loaded and not pending:
                quiet_since = quiet_since or time.monotonic()
                if time.monotonic() - quiet_since > 0.5:
                    break
            continue
        quiet_since = None
        method, params = ev.get("method"), ev.get("params", {})
        if method == "Network.requestWillBeSent":
            requests[params["requestId"]] = (params.get("type"), params["request"]["url"])
            pending.add(params["requestId"])
        elif method == "Network.responseReceived":
            status = params["response"]["status"]
            if params.get("type") in CHECKED_TYPES and status >= 400:
                failed.append(f"{params['response']['url']} (HTTP {status})")
        elif method == "Network.loadingFinished":
            pending.discard(params["requestId"])
        elif method == "Network.loadingFailed":
            pending.discard(params["requestId"])
            kind, url = requests.get(params["requestId"], (params.get("type"), "?"))
            if kind in CHECKED_TYPES and not params.get("canceled"):
                failed.append(f"{url} ({params.get('errorText')})")
        elif method == "Page.loadEventFired":
            loaded = True
    if not loaded:
        problems.append(f"{name} ({file}): no load event in 30 s")
    state = json.loads(browser.page("Runtime.evaluate", {"expression": PAGE_STATE,
                                                         "returnByValue": True})["result"]["value"])
    if "404" in state["title"] or not state["title"]:
        problems.append(f"{name} ({file}): title is '{state['title']}'")
    for img in state["images"]:
        if not img["complete"] or img["width"] == 0:
            problems.append(f"{name} ({file}): picture '{img['src']}' did not load")
    problems += [f"{name} ({file}): {f} did not load" for f in failed]
    png = browser.page("Page.captureScreenshot", {"format": "png"})["data"]
    with open(shot, "wb") as f:
        f.write(base64.b64decode(png))
    return problems, state


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--html", required=True, help="the built site (index.html's folder)")
    ap.add_argument("--root", required=True, help="the repository")
    ap.add_argument("--screenshots", required=True, help="where to write the screenshots")
    args = ap.parse_args(argv)

    chromium = os.environ.get("COURSE_CHROMIUM") or shutil.which("chromium") or \
        shutil.which("chromium-browser")
    if not chromium:
        print("browser check skipped: Chromium is not installed (Debian: apt-get install "
              "chromium; or set COURSE_CHROMIUM to a Chromium binary)")
        return SKIP
    if not os.path.isfile(os.path.join(args.html, "index.html")):
        print(f"browser check: {args.html}/index.html does not exist: build the site first "
              "(cmake --build --preset docs)", file=sys.stderr)
        return 1
    os.makedirs(args.screenshots, exist_ok=True)

    problems, opened = [], []
    with tempfile.TemporaryDirectory(prefix="course-chromium-") as profile:
        try:
            browser = Browser(chromium, profile)
        except (OSError, RuntimeError) as e:
            print(f"browser check: {chromium} did not start: {e}", file=sys.stderr)
            return 1
        handler = functools.partial(QuietHandler, directory=args.html)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}"
        try:
            for domain in ("Page", "Network", "Runtime"):
                browser.page(f"{domain}.enable")
            browser.page("Emulation.setDeviceMetricsOverride",
                         {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1,
                          "mobile": False})
            for name, file in pages_to_open(args.root):
                if not os.path.isfile(os.path.join(args.html, file)):
                    problems.append(f"{name}: {file} was not generated")
                    continue
                shot = os.path.join(args.screenshots, file.replace(".html", ".png"))
                try:
                    found, state = check_page(browser, base, name, file, shot)
                except RuntimeError as e:  # Chromium did not answer, or went away
                    found, state = [f"{name} ({file}): {e}"], None
                problems += found
                if state is not None:
                    opened.append(f"{name} ({file}): {len(state['images'])} pictures, "
                                  f"screenshot {shot}")
                if file == "index.html" and state is not None:
                    want = [f"{l.label}.html" for l in lessons(args.root)]
                    got = [h for h in state["links"] if h in want]
                    if list(dict.fromkeys(got)) != want:
                        problems.append(f"main page: lesson links {got}, want {want} in order")
        finally:
            browser.close()
            server.shutdown()
    problems += [f"the server was asked for a missing file: {m}" for m in QuietHandler.misses]
    for line in opened:
        print(f"opened {line}")
    for p in problems:
        print(f"browser check: {p}", file=sys.stderr)
    print(f"browser check: {len(opened)} pages opened, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
