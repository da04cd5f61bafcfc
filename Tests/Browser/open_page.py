#!/usr/bin/env python3
"""Opens a local HTML page in headless Chromium, as a person would, and prints what happened as JSON.

Usage: open_page.py PAGE.html [--screenshot OUT.png] [--dark-screenshot OUT.png] [--height PIXELS]
                    [--element-screenshot SELECTOR=OUT.png] [--eval NAME=EXPRESSION ...] [--tabs N]

Chromium is driven over the DevTools protocol on a pipe (--remote-debugging-pipe), so nothing but
Python's standard library and Debian's `chromium` is needed. The JSON has:
  console    console errors and warnings, uncaught exceptions, and browser log errors (CSP, loads)
  requests   every URL the page asked for besides itself and data: URLs
  images     each <img>: its alt text and whether it decoded (HTMLImageElement.decode())
  evals      NAME -> the value of each --eval expression (awaited when it is a promise)
  focus      what had the focus after each of --tabs presses of the Tab key
Exit 0 when the page loaded, 2 on a usage error, 1 when Chromium failed or timed out.
"""
import base64
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

TIMEOUT = 60


class Browser:
    def __init__(self, executable):
        self.profile = tempfile.mkdtemp(prefix="tessera-chromium-")
        to_child_read, self.to_child = os.pipe()
        self.from_child, from_child_write = os.pipe()

        def wire():
            # Chromium reads commands from fd 3 and writes answers to fd 4.
            read_copy, write_copy = os.dup(to_child_read), os.dup(from_child_write)
            os.dup2(read_copy, 3)
            os.dup2(write_copy, 4)

        args = [executable, "--headless=new", "--remote-debugging-pipe", "--disable-gpu",
                "--user-data-dir=" + self.profile, "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-dev-shm-usage", "--window-size=1280,1000", "about:blank"]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")  # Chromium refuses to run its sandbox as root (CI containers).
        self.process = subprocess.Popen(args, preexec_fn=wire, close_fds=False,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_child_read)
        os.close(from_child_write)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.deadline = time.monotonic() + TIMEOUT

    def _read_message(self):
        while b"\0" not in self.buffer:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("Chromium did not answer within %d s" % TIMEOUT)
            ready, _, _ = select.select([self.from_child], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.from_child, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed its DevTools pipe (exit %s)" % self.process.poll())
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_child, json.dumps(message).encode() + b"\0")
        while True:
            answer = self._read_message()
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError("%s: %s" % (method, answer["error"]))
                return answer.get("result", {})
            self.events.append(answer)

    def wait_for(self, method, seconds=30):
        limit = time.monotonic() + seconds
        while True:
            for index, event in enumerate(self.events):
                if event.get("method") == method:
                    return self.events.pop(index)
            if time.monotonic() > limit:
                raise TimeoutError("no %s within %d s" % (method, seconds))
            self.events.append(self._read_message())

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def evaluate(browser, session, expression):
    result = browser.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                               "returnByValue": True}, session)
    if "exceptionDetails" in result:
        return {"exception": result["exceptionDetails"].get("exception", {}).get("description", "exception")}
    return result.get("result", {}).get("value")


def screenshot(browser, session, path, limit):
    metrics = browser.send("Page.getLayoutMetrics", {}, session)
    height = min(int(metrics["cssContentSize"]["height"]) + 1, limit)
    browser.send("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": height, "deviceScaleFactor": 1,
                                                        "mobile": False}, session)
    shot = browser.send("Page.captureScreenshot", {"format": "png"}, session)
    with open(path, "wb") as out:
        out.write(base64.b64decode(shot["data"]))
    browser.send("Emulation.clearDeviceMetricsOverride", {}, session)


def element_screenshot(browser, session, selector, path):
    """A picture of one element (its bounding box), the page laid out at full height."""
    metrics = browser.send("Page.getLayoutMetrics", {}, session)
    height = int(metrics["cssContentSize"]["height"]) + 1
    browser.send("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": height, "deviceScaleFactor": 1,
                                                        "mobile": False}, session)
    box = evaluate(browser, session, "(() => { const r = document.querySelector(%s).getBoundingClientRect();"
                   " return [r.left + scrollX, r.top + scrollY, r.width, r.height]; })()" % json.dumps(selector))
    shot = browser.send("Page.captureScreenshot", {"format": "png", "clip": {"x": box[0], "y": box[1], "width": box[2],
                                                                             "height": box[3], "scale": 1}}, session)
    with open(path, "wb") as out:
        out.write(base64.b64decode(shot["data"]))
    browser.send("Emulation.clearDeviceMetricsOverride", {}, session)


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    page = os.path.abspath(argv[1])
    options = {"screenshot": None, "dark": None, "evals": [], "tabs": 0, "height": 6000, "elements": []}
    rest = argv[2:]
    while rest:
        flag = rest.pop(0)
        if not rest:
            print("missing a value after " + flag, file=sys.stderr)
            return 2
        value = rest.pop(0)
        if flag == "--screenshot":
            options["screenshot"] = value
        elif flag == "--dark-screenshot":
            options["dark"] = value
        elif flag == "--eval":
            name, _, expression = value.partition("=")
            options["evals"].append((name, expression))
        elif flag == "--element-screenshot":
            selector, _, path = value.rpartition("=")
            options["elements"].append((selector, path))
        elif flag == "--height":
            options["height"] = int(value)
        elif flag == "--tabs":
            options["tabs"] = int(value)
        else:
            print("unknown option " + flag, file=sys.stderr)
            return 2
    executable = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not executable:
        print("chromium is not installed", file=sys.stderr)
        return 1
    browser = Browser(executable)
    try:
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            browser.send(domain + ".enable", {}, session)
        page_url = "file://" + page
        browser.send("Page.navigate", {"url": page_url}, session)
        browser.wait_for("Page.loadEventFired")
        report = {"console": [], "requests": [], "images": [], "evals": {}, "focus": []}
        report["images"] = evaluate(browser, session, """Promise.all(Array.from(document.images).map(image =>
            image.decode().then(() => ({alt: image.alt, decoded: image.naturalWidth > 0}),
                                () => ({alt: image.alt, decoded: false}))))""")
        for name, expression in options["evals"]:
            report["evals"][name] = evaluate(browser, session, expression)
        for _ in range(options["tabs"]):
            for kind in ("keyDown", "keyUp"):
                browser.send("Input.dispatchKeyEvent", {"type": kind, "key": "Tab", "code": "Tab",
                                                        "windowsVirtualKeyCode": 9}, session)
            report["focus"].append(evaluate(browser, session, """(() => { const e = document.activeElement;
                return e ? e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' ' + (e.textContent || '').trim().slice(0, 40) : ''; })()"""))
        if options["screenshot"]:
            screenshot(browser, session, options["screenshot"], options["height"])
        for selector, path in options["elements"]:
            element_screenshot(browser, session, selector, path)
        if options["dark"]:
            browser.send("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]},
                         session)
            screenshot(browser, session, options["dark"], options["height"])
        # Whatever arrived meanwhile: console messages, exceptions, requests.
        browser.send("Runtime.evaluate", {"expression": "0"}, session)
        for event in browser.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "warning", "assert"):
                report["console"].append(" ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
            elif method == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                report["console"].append(details.get("exception", {}).get("description") or details.get("text", "exception"))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") in ("error", "warning"):
                report["console"].append(params["entry"].get("text", ""))
            elif method == "Network.requestWillBeSent":
                url = params.get("request", {}).get("url", "")
                if url != page_url and not url.startswith("data:"):
                    report["requests"].append(url)
        print(json.dumps(report, indent=1))
        return 0
    except Exception as error:  # Reported, not raised: the caller reads one JSON or one message.
        print("open_page: %s" % error, file=sys.stderr)
        return 1
    finally:
        browser.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
