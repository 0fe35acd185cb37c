"""Drives headless Chromium through the DevTools protocol for the browser tests (BrowserTests).

Reads a JSON list of steps from the file it is given, runs them in one tab, and prints one JSON object:

    {"results": [...], "requests": [...], "offsite": [...], "errors": [...]}

Steps:
    {"navigate": URL}          load URL and wait for its load event
    {"waitFor": JS, "timeout": S}  poll JS until it is truthy (default 10 s)
    {"evaluate": JS}           the value of JS (JSON-able; promises are awaited) goes to "results"
    {"click": SELECTOR}        click the element; when that navigates, wait for the new page's load
    {"screenshot": PATH}       a PNG of the viewport
    {"viewport": [W, H]}       resize the viewport

"requests" are every URL the page asked for, "offsite" those that are not file:, data:, about: or
loopback (a self-contained page has none), and "errors" the console errors and uncaught exceptions.
A step that fails (a missing element, an exception in JS, a timeout) ends the run with exit 1 and the
reason on stderr.

Usage: browser_probe.py [--chromium PATH] STEPS.json
"""

import argparse
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request

import websocket  # websocket-client, from PyPI

LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}


class Failure(Exception):
    pass


class Tab:
    def __init__(self, url):
        self.socket = websocket.create_connection(url, timeout=60, suppress_origin=True)
        self.next_id = 0
        self.events = []
        self.requests = []
        self.errors = []

    def call(self, method, **params):
        self.next_id += 1
        ident = self.next_id
        self.socket.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == ident:
                if "error" in message:
                    raise Failure(f"{method}: {message['error'].get('message')}")
                return message.get("result", {})
            self.note(message)

    def note(self, message):
        method = message.get("method")
        params = message.get("params", {})
        if method == "Network.requestWillBeSent":
            self.requests.append(params["request"]["url"])
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            text = details.get("exception", {}).get("description") or details.get("text")
            self.errors.append(f"exception: {text}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
            text = " ".join(str(arg.get("value", arg.get("description", ""))) for arg in params.get("args", []))
            self.errors.append(f"console.error: {text}")
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            self.errors.append(f"log: {entry.get('text')} {entry.get('url', '')}".strip())
        self.events.append(method)

    def wait_for_event(self, name, timeout):
        deadline = time.monotonic() + timeout
        self.events.clear()
        while name not in self.events:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise Failure(f"no {name} within {timeout} s")
            self.socket.settimeout(remaining)
            try:
                self.note(json.loads(self.socket.recv()))
            except websocket.WebSocketTimeoutException:
                raise Failure(f"no {name} within {timeout} s")
        self.socket.settimeout(60)

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise Failure(f"evaluate {expression!r}: {text}")
        return result.get("result", {}).get("value")


def offsite(url):
    parsed = urllib.parse.urlsplit(url)
    if parsed.scheme in ("file", "data", "about", "blob", "chrome-error"):
        return False
    return parsed.hostname not in LOOPBACK


def start_chromium(chromium, profile):
    arguments = [
        chromium, "--headless", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
        "--disable-extensions", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--hide-scrollbars", "--mute-audio", "--window-size=1200,900",
        f"--user-data-dir={profile}", "--remote-debugging-port=0", "about:blank",
    ]
    if os.geteuid() == 0:
        arguments.insert(1, "--no-sandbox")  # Chromium refuses to run as root with its sandbox
    process = subprocess.Popen(arguments, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # Chromium prints the DevTools address on stderr once it listens (port 0: one it chose).
    deadline = time.monotonic() + 60
    port = None
    seen = []
    while time.monotonic() < deadline:
        line = process.stderr.readline().decode("utf-8", "replace")
        if not line:
            break
        seen.append(line)
        match = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
        if match:
            port = int(match.group(1))
            break
    if port is None:
        process.kill()
        raise Failure("chromium did not start:\n" + "".join(seen[-20:]))
    # Keep reading stderr so that Chromium never blocks on a full pipe.
    threading.Thread(target=lambda: process.stderr.read(), daemon=True).start()
    return process, port


def page_socket(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30) as reply:
        targets = json.load(reply)
    for target in targets:
        if target.get("type") == "page":
            return target["webSocketDebuggerUrl"]
    raise Failure("chromium has no page to drive")


def run(tab, steps):
    results = []
    for step in steps:
        if "navigate" in step:
            tab.events.clear()
            reply = tab.call("Page.navigate", url=step["navigate"])
            if reply.get("errorText"):
                raise Failure(f"navigate {step['navigate']}: {reply['errorText']}")
            tab.wait_for_event("Page.loadEventFired", step.get("timeout", 30))
        elif "waitFor" in step:
            deadline = time.monotonic() + step.get("timeout", 10)
            while not tab.evaluate(step["waitFor"]):
                if time.monotonic() > deadline:
                    raise Failure(f"waitFor {step['waitFor']!r}: still false after {step.get('timeout', 10)} s")
                time.sleep(0.05)
        elif "evaluate" in step:
            results.append(tab.evaluate(step["evaluate"]))
        elif "click" in step:
            selector = json.dumps(step["click"])
            tab.evaluate("window.__probeBeforeClick = true")
            found = tab.evaluate(
                f"(() => {{ const e = document.querySelector({selector}); if (!e) return false; e.click(); return true; }})()"
            )
            if not found:
                raise Failure(f"click {step['click']!r}: no such element")
            # A click that navigates replaces the window; wait for the new page to load.
            deadline = time.monotonic() + step.get("timeout", 30)
            while True:
                try:
                    state = tab.evaluate("[window.__probeBeforeClick === true, document.readyState]")
                except Failure:
                    state = None
                if state and state[0] is True:
                    time.sleep(0.2)
                    state = tab.evaluate("[window.__probeBeforeClick === true, document.readyState]")
                    if state[0] is True:
                        break  # no navigation
                if state and state[0] is False and state[1] == "complete":
                    break
                if time.monotonic() > deadline:
                    raise Failure(f"click {step['click']!r}: the page did not load within {step.get('timeout', 30)} s")
                time.sleep(0.05)
        elif "screenshot" in step:
            shot = tab.call("Page.captureScreenshot", format="png")
            with open(step["screenshot"], "wb") as file:
                file.write(base64.b64decode(shot["data"]))
        elif "viewport" in step:
            width, height = step["viewport"]
            tab.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        else:
            raise Failure(f"unknown step {step!r}")
    return results


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    parser.add_argument("steps")
    options = parser.parse_args()
    with open(options.steps, encoding="utf-8") as file:
        steps = json.load(file)
    profile = tempfile.mkdtemp(prefix="browser-probe-")
    process = None
    try:
        process, port = start_chromium(options.chromium, profile)
        tab = Tab(page_socket(port))
        for domain in ("Page", "Runtime", "Network", "Log"):
            tab.call(f"{domain}.enable")
        results = run(tab, steps)
        json.dump(
            {
                "results": results,
                "requests": tab.requests,
                "offsite": [url for url in tab.requests if offsite(url)],
                "errors": tab.errors,
            },
            sys.stdout,
        )
    except Failure as failure:
        print(failure, file=sys.stderr)
        sys.exit(1)
    finally:
        if process is not None:
            process.kill()
            process.wait()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
