#!/usr/bin/python3
"""Runs the commands README.md and docs/ci.md show, as they are written there (issue 40).

    scripts/test-docs.py dist/tessera-VERSION-linux-ARCH.tar.gz

- README.md: the `sh` blocks of "Install" and "Quick start" run as one shell session, in a fresh
  folder holding the tarball and `MyApp` (a copy of Samples/); the "Developing Tessera" block's
  make targets must exist (`make -n`: running them here would run this script's own CI again).
- docs/ci.md: every recipe, read out of the page's YAML: the pull-request size check (both CI
  systems) and the sharded builds (both), whose shards write a real nginx WebDAV remote cache
  and whose merge must give the manifest an unsharded build gives. Their
  `run:`/`script:` steps run in order, as the CI system would run them (GitHub: each step in
  `bash -eo pipefail`, fresh `$GITHUB_OUTPUT` files, the `$GITHUB_PATH`, `$GITHUB_ENV` and
  `$GITHUB_STEP_SUMMARY` files honoured, `${{ … }}` expressions and `if:` conditions evaluated;
  GitLab: before_script and script in one `set -eo pipefail` shell, job rules evaluated), against
  a real `tessera serve`, a local server for the release URL and, for GitLab's merge-request note,
  a local API that keeps what it is sent. Three runs each: the main branch (publishes), a pull
  request within its budgets (exit 0, the summary written), and one that adds a large image
  (exit 3).
- Tessera's GitHub Action (action.yml): the recipes' `uses: OWNER/tessera@vX.Y.Z` (X.Y.Z must be
  the release's) or `uses: ./PATH` (given a copy of action.yml and action/) is expanded into the
  action's composite steps, run as above with its inputs (defaults included) and outputs; the
  outputs and the summary are checked, and the action is run once more against each other kind of
  base (an artifact's folder, a static manifest URL, a missing base). Other `uses:` steps
  (checkout, cache) are the CI system's own and are not run; upload-artifact and
  download-artifact are copies into a folder for the sharded recipe.

Needs root (the recipes install packages with apt-get, which must already be installed here)
and /usr/bin/python3 with python3-yaml (scripts/ensure-system-packages.sh installs both).
"""
import glob
import http.server
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
import zlib
import struct

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fail(message):
    sys.exit(f"test-docs: {message}")


def section(markdown, heading):
    """The text under `heading` up to the next heading of the same or a higher level."""
    level = heading.split(" ")[0]
    lines = markdown.split("\n")
    try:
        start = lines.index(heading)
    except ValueError:
        fail(f"no heading '{heading}'")
    end = len(lines)
    for index in range(start + 1, len(lines)):
        match = re.match(r"^(#+) ", lines[index])
        if match and len(match.group(1)) <= len(level) and not in_fence(lines, index):
            end = index
            break
    return "\n".join(lines[start + 1:end])


def in_fence(lines, index):
    return sum(1 for line in lines[:index] if line.startswith("```")) % 2 == 1


def blocks(text, language):
    return re.findall(r"^```" + language + r"\n(.*?)^```", text, flags=re.S | re.M)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve_folder(folder):
    """A static HTTP server of `folder` on a free port; returns its base URL."""
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=folder, **kwargs)

        def log_message(self, *args):
            pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}"


class NoteCatcher:
    """GitLab's notes API as far as the recipe uses it: keeps each POST's form fields."""
    def __init__(self):
        self.notes = []
        catcher = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                fields = urllib.parse.parse_qs(self.rfile.read(length).decode())
                catcher.notes.append({"path": self.path, "token": self.headers.get("PRIVATE-TOKEN"),
                                      "body": fields.get("body", [""])[0]})
                self.send_response(201)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b'{"id": 1}')

            def log_message(self, *args):
                pass
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/api/v4"


def noise_png(path, size):
    """An incompressible RGB PNG of size×size: an image large enough to break a growth budget."""
    raw = b"".join(b"\x00" + os.urandom(size * 3) for _ in range(size))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    with open(path, "wb") as file:
        file.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
                   + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b""))


def app_folder(destination, grow=False):
    """A checkout: `Assets` (or MyApp) is Samples/ without the client demo; `grow` adds a large image."""
    shutil.copytree(os.path.join(ROOT, "Samples"), destination, ignore=shutil.ignore_patterns("ClientDemo"))
    if grow:
        noise_png(os.path.join(destination, "Backdrop@3x.png"), 900)


def run(script, cwd, env):
    result = subprocess.run(["bash", "--noprofile", "--norc", "-e", "-o", "pipefail", "-c", script], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return result.returncode, result.stdout


class Sandbox:
    def __init__(self, tarball):
        self.folder = tempfile.mkdtemp(prefix="tessera-docs-")
        self.tarball = tarball
        self.shims = os.path.join(self.folder, "shims")
        os.makedirs(self.shims)
        # The recipes run `sudo apt-get`; this runs as root already.
        with open(os.path.join(self.shims, "sudo"), "w") as file:
            file.write('#!/bin/sh\nexec "$@"\n')
        os.chmod(os.path.join(self.shims, "sudo"), 0o755)
        releases = os.path.join(self.folder, "releases")
        os.makedirs(releases)
        shutil.copy(tarball, releases)
        self.release_url = f"{serve_folder(releases)}/{os.path.basename(tarball)}"
        self.start_server()

    def environment(self, home, **extra):
        env = {"PATH": f"{self.shims}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
               "HOME": home, "LANG": "C.UTF-8", "DEBIAN_FRONTEND": "noninteractive"}
        env.update(extra)
        return env

    def start_server(self):
        unpacked = os.path.join(self.folder, "server-bin")
        os.makedirs(unpacked)
        subprocess.run(["tar", "-xzf", self.tarball, "-C", unpacked, "--strip-components=1"], check=True)
        self.token = "docs-test-token"
        token_file = os.path.join(self.folder, "token")
        with open(token_file, "w") as file:
            file.write(self.token)
        port = free_port()
        self.server_url = f"http://127.0.0.1:{port}"
        self.server = subprocess.Popen([os.path.join(unpacked, "bin", "tessera"), "serve",
                                        "--database", f"sqlite:{self.folder}/catalog.sqlite",
                                        "--store", f"{self.folder}/store", "--token-file", token_file,
                                        "--port", str(port)],
                                       stdout=subprocess.DEVNULL, stderr=open(f"{self.folder}/serve.log", "w"))
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"{self.server_url}/healthz", timeout=1) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        fail("tessera serve did not start: " + open(f"{self.folder}/serve.log").read())

    def close(self):
        self.server.terminate()
        self.server.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def check_readme(sandbox):
    readme = open(os.path.join(ROOT, "README.md")).read()
    script = "\n".join(blocks(section(readme, "## Install"), "sh") + blocks(section(readme, "## Quick start: your own app"), "sh"))
    named = re.search(r"tar -xzf (\S+)", script)
    if not named or named.group(1) != os.path.basename(sandbox.tarball):
        fail(f"README's install unpacks {named.group(1) if named else 'nothing'}, the release is {os.path.basename(sandbox.tarball)}")
    work = os.path.join(sandbox.folder, "readme")
    os.makedirs(work)
    shutil.copy(sandbox.tarball, work)
    app_folder(os.path.join(work, "MyApp"))
    status, output = run(script, work, sandbox.environment(os.path.join(work, "home")))
    if status != 0:
        fail(f"README's Install and Quick start exited {status}:\n{output[-3000:]}")
    for expected in ["tessera 0.", "Built ", "bundle"]:
        if expected not in output:
            fail(f"README's commands printed no '{expected}':\n{output[-3000:]}")
    for block in blocks(section(readme, "## Developing Tessera"), "sh"):
        targets = [line.split()[1] for line in block.split("\n") if line.startswith("make ")]
        if not targets or subprocess.run(["make", "-n", *targets], cwd=ROOT, stdout=subprocess.DEVNULL).returncode != 0:
            fail(f"README's make targets {targets} are not all in the Makefile")
    print(f"test-docs: README's Install and Quick start ran ({len(script.splitlines())} lines)", file=sys.stderr)


def recipe_of(heading):
    """The first YAML block under `heading` in docs/ci.md, parsed."""
    ci = open(os.path.join(ROOT, "docs", "ci.md")).read()
    found = blocks(section(ci, heading), "yaml")
    if not found:
        fail(f"docs/ci.md has no YAML under '{heading}'")
    return yaml.safe_load(found[0])


class Expression:
    """GitHub's `${{ … }}` expressions as far as the recipes and action.yml use them: literals,
    contexts (github, env, secrets, inputs, steps, matrix, runner), `!`, `==`, `!=`, `&&`, `||`,
    parentheses, and the functions always, success, failure, cancelled, format, contains, startsWith
    and endsWith. Strings compare case-insensitively and `&&`/`||` give an operand, as GitHub's do;
    an input action.yml does not declare, or a context the test does not know, fails the test."""
    TOKEN = re.compile(r"\s*(?:(?P<string>'(?:[^']|'')*')|(?P<number>\d+(?:\.\d+)?)(?![\w.-])"
                       r"|(?P<op>==|!=|&&|\|\||[()!,])|(?P<name>[A-Za-z_][\w.-]*))")
    STATUS_FUNCTIONS = ("always(", "success(", "failure(", "cancelled(")

    def __init__(self, text, contexts, failed=False):
        self.text, self.contexts, self.failed = text, contexts, failed
        self.tokens, position = [], 0
        text = text.strip()
        while position < len(text):
            match = self.TOKEN.match(text, position)
            if not match or match.end() == position:
                fail(f"the expression '{text}' has what this test cannot read at '{text[position:]}'")
            kind = match.lastgroup
            self.tokens.append((kind, match.group(kind)))
            position = match.end()
            while position < len(text) and text[position].isspace():
                position += 1

    def value(self):
        self.position = 0
        result = self.either()
        if self.position != len(self.tokens):
            fail(f"the expression '{self.text}' has more after {self.tokens[self.position - 1][1]}")
        return result

    def peek(self):
        return self.tokens[self.position][1] if self.position < len(self.tokens) else None

    def take(self, expected=None):
        if self.position >= len(self.tokens) or (expected and self.tokens[self.position][1] != expected):
            fail(f"the expression '{self.text}' lacks '{expected}'")
        self.position += 1
        return self.tokens[self.position - 1]

    def either(self):
        left = self.both()
        while self.peek() == "||":
            self.take()
            right = self.both()
            left = left if truthy(left) else right
        return left

    def both(self):
        left = self.comparison()
        while self.peek() == "&&":
            self.take()
            right = self.comparison()
            left = right if truthy(left) else left
        return left

    def comparison(self):
        left = self.unary()
        if self.peek() in ("==", "!="):
            operator = self.take()[1]
            equal = text_of(left).lower() == text_of(self.unary()).lower()
            return equal if operator == "==" else not equal
        return left

    def unary(self):
        if self.peek() == "!":
            self.take()
            return not truthy(self.unary())
        return self.primary()

    def primary(self):
        kind, token = self.take()
        if kind == "string":
            return token[1:-1].replace("''", "'")
        if kind == "number":
            return float(token) if "." in token else int(token)
        if token == "(":
            inner = self.either()
            self.take(")")
            return inner
        if kind != "name":
            fail(f"the expression '{self.text}' has '{token}' where a value goes")
        if token in ("true", "false", "null"):
            return {"true": True, "false": False, "null": None}[token]
        if self.peek() == "(":
            self.take("(")
            arguments = []
            while self.peek() != ")":
                arguments.append(self.either())
                if self.peek() == ",":
                    self.take(",")
            self.take(")")
            return self.call(token, arguments)
        return self.lookup(token)

    def call(self, name, arguments):
        if name == "always":
            return True
        if name == "success":
            return not self.failed
        if name == "failure":
            return self.failed
        if name == "cancelled":
            return False
        if name == "format":
            return re.sub(r"\{(\d+)\}", lambda match: text_of(arguments[int(match.group(1)) + 1]), text_of(arguments[0]))
        if name in ("contains", "startsWith", "endsWith"):
            haystack, needle = text_of(arguments[0]).lower(), text_of(arguments[1]).lower()
            return {"contains": needle in haystack, "startsWith": haystack.startswith(needle),
                    "endsWith": haystack.endswith(needle)}[name]
        fail(f"the expression '{self.text}' calls {name}(), which this test does not know")

    def lookup(self, name):
        parts = name.split(".")
        if parts[0] not in self.contexts:
            fail(f"the expression '{self.text}' reads the context '{parts[0]}', which this test does not give")
        value = self.contexts[parts[0]]
        if parts[0] == "inputs" and (len(parts) != 2 or parts[1] not in value):
            fail(f"the expression '{self.text}' reads '{name}', an input action.yml does not declare")
        for part in parts[1:]:
            value = value.get(part) if isinstance(value, dict) else None
        return value


def truthy(value):
    return value not in (None, False, 0, "")


def text_of(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def interpolate(value, contexts, failed=False):
    """`value` with each `${{ … }}` replaced by its value as text."""
    return re.sub(r"\$\{\{(.*?)\}\}", lambda match: text_of(Expression(match.group(1), contexts, failed).value()), text_of(value))


def condition_holds(condition, contexts, failed):
    """A step's `if:`: without a status function it means `success() && (…)`, as on GitHub."""
    if condition is None:
        return not failed
    text = str(condition).strip()
    if text.startswith("${{") and text.endswith("}}"):
        text = text[3:-2]
    if not any(function in text for function in Expression.STATUS_FUNCTIONS):
        text = f"success() && ({text})"
    return truthy(Expression(text, contexts, failed).value())


def read_commands_file(path):
    """A $GITHUB_OUTPUT or $GITHUB_ENV file: `name=value` lines and `name<<DELIMITER` blocks."""
    values, lines, index = {}, open(path).read().split("\n"), 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if not line:
            continue
        block = re.fullmatch(r"([^=]+?)<<(.+)", line)
        if block:
            collected = []
            while index < len(lines) and lines[index] != block.group(2):
                collected.append(lines[index])
                index += 1
            if index == len(lines):
                fail(f"{path}: '{block.group(1)}' has no closing '{block.group(2)}'")
            index += 1
            values[block.group(1)] = "\n".join(collected)
        elif "=" in line:
            name, value = line.split("=", 1)
            values[name] = value
        else:
            fail(f"{path}: the line '{line}' is neither name=value nor name<<DELIMITER")
    return values


ACTION_REFERENCE = re.compile(r"([\w.-]+)/tessera@(v[\w.-]+)")


class GitHubJob:
    """One job of a workflow, run as a GitHub runner would run its steps: `run:` steps in
    `bash -eo pipefail` with fresh $GITHUB_OUTPUT files and the $GITHUB_PATH, $GITHUB_ENV and
    $GITHUB_STEP_SUMMARY files honoured; `if:` conditions evaluated (a failed step skips what
    follows unless its condition says otherwise); a `uses:` of Tessera's action (`OWNER/tessera@vX.Y.Z`
    or a local `./PATH`, which gets a copy of this repository's action.yml and action/) expanded
    into its composite steps, with inputs, defaults and outputs; other `uses:` (checkout, cache,
    artifacts) are the runner's own and are skipped, their expressions evaluated all the same."""
    def __init__(self, sandbox, work, event, env, secrets, matrix=None, artifacts=None, files=".runner", home="home"):
        self.sandbox, self.work = sandbox, work
        self.secrets, self.matrix = secrets, matrix or {}
        # Where upload-artifact puts files and download-artifact takes them (None: both skipped).
        self.artifacts = artifacts
        self.files = os.path.join(work, files)
        self.home = os.path.join(work, home)
        os.makedirs(os.path.join(self.files, "temp"), exist_ok=True)
        self.github_path = os.path.join(self.files, "path")
        self.github_env = os.path.join(self.files, "env")
        self.summary = os.path.join(self.files, "step_summary")
        for path in (self.github_path, self.github_env, self.summary):
            open(path, "a").close()
        self.github = {"event_name": event, "ref": "refs/heads/main" if event == "push" else "refs/pull/42/merge",
                       "workspace": work, "repository": "example/app", "server_url": "https://github.com",
                       "event": {"repository": {"default_branch": "main"}}}
        self.env = dict(env)
        self.failed, self.status, self.output = False, 0, ""
        self.steps_run, self.actions = 0, []

    def contexts(self, **more):
        return {"github": self.github, "env": {**self.env, **read_commands_file(self.github_env)},
                "secrets": self.secrets, "runner": {"os": "Linux", "arch": "X64", "temp": os.path.join(self.files, "temp")},
                "job": {"status": "failure" if self.failed else "success"}, "matrix": self.matrix, **more}

    def shell(self, script, cwd, step_env, name):
        """One `run:` step; returns its outputs."""
        output_file = os.path.join(self.files, f"output-{self.steps_run}")
        open(output_file, "w").close()
        path_entries = [line for line in open(self.github_path).read().split("\n") if line]
        variables = {**self.env, **read_commands_file(self.github_env), **step_env}
        environment = self.sandbox.environment(self.home)
        environment.update(variables)
        environment.update(
            CI="true", GITHUB_ACTIONS="true", GITHUB_WORKSPACE=self.work, GITHUB_EVENT_NAME=self.github["event_name"],
            GITHUB_REF=self.github["ref"], GITHUB_REPOSITORY=self.github["repository"],
            GITHUB_SERVER_URL=self.github["server_url"], GITHUB_PATH=self.github_path, GITHUB_ENV=self.github_env,
            GITHUB_OUTPUT=output_file, GITHUB_STEP_SUMMARY=self.summary, RUNNER_OS="Linux", RUNNER_ARCH="X64",
            RUNNER_TEMP=os.path.join(self.files, "temp"))
        if path_entries:
            environment["PATH"] = ":".join(reversed(path_entries)) + ":" + environment["PATH"]
        status, output = run(script, cwd, environment)
        self.steps_run += 1
        self.output += f"--- step '{name}' exited {status}\n{output}"
        if status != 0 and not self.failed:
            self.failed, self.status = True, status
        return read_commands_file(output_file)

    def run_steps(self, steps):
        steps_context = {}
        for step in steps:
            contexts = self.contexts(steps=steps_context)
            if not condition_holds(step.get("if"), contexts, self.failed):
                continue
            step_env = {key: interpolate(value, contexts) for key, value in step.get("env", {}).items()}
            if "run" in step:
                cwd = os.path.join(self.work, interpolate(step.get("working-directory", "."), contexts))
                outputs = self.shell(interpolate(step["run"], contexts), cwd, step_env, step.get("name", step["run"][:40]))
            elif step.get("uses", "").startswith("./") or ACTION_REFERENCE.fullmatch(step.get("uses", "")):
                outputs = self.action(step["uses"], step.get("with", {}), step_env, contexts)
                self.actions.append(outputs)
            elif self.artifacts and step["uses"].startswith("actions/upload-artifact@"):
                for path in glob.glob(os.path.join(self.work, interpolate(step["with"]["path"], contexts))):
                    if os.path.isfile(path):
                        shutil.copy(path, self.artifacts)
                continue
            elif self.artifacts and step["uses"].startswith("actions/download-artifact@"):
                shutil.copytree(self.artifacts, os.path.join(self.work, interpolate(step["with"]["path"], contexts)), dirs_exist_ok=True)
                continue
            else:
                for value in step.get("with", {}).values():
                    interpolate(value, contexts)
                continue
            if "id" in step:
                steps_context[step["id"]] = {"outputs": outputs}

    def action(self, uses, with_values, step_env, contexts):
        """Tessera's composite action, its `run:` steps run here; returns its outputs."""
        reference = ACTION_REFERENCE.fullmatch(uses)
        if reference:
            version = re.search(r"tessera-([^-]+)-linux", os.path.basename(self.sandbox.tarball)).group(1)
            if reference.group(2) != f"v{version}":
                fail(f"the GitHub recipe uses the action at {reference.group(2)}, the release is v{version}")
            folder = ROOT
            github = {**self.github, "action_repository": f"{reference.group(1)}/tessera", "action_ref": reference.group(2)}
        else:
            folder = os.path.normpath(os.path.join(self.work, uses))
            github = {**self.github, "action_repository": "", "action_ref": ""}
            os.makedirs(folder, exist_ok=True)
            shutil.copy(os.path.join(ROOT, "action.yml"), folder)
            shutil.copytree(os.path.join(ROOT, "action"), os.path.join(folder, "action"), dirs_exist_ok=True)
        github["action_path"] = folder
        spec = yaml.safe_load(open(os.path.join(folder, "action.yml")))
        if spec["runs"]["using"] != "composite":
            fail(f"{uses}: action.yml is not a composite action")
        declared = spec.get("inputs", {})
        unknown = sorted(set(with_values) - set(declared))
        if unknown:
            fail(f"the GitHub recipe gives {uses} inputs action.yml does not declare: {unknown}")
        inputs = {}
        for name, declaration in declared.items():
            given = name in with_values
            inputs[name] = interpolate(with_values[name] if given else declaration.get("default", ""),
                                       contexts if given else {"github": github})
            if declaration.get("required") and not inputs[name]:
                fail(f"{uses}: the required input '{name}' is empty")
        steps_context = {}
        for step in spec["runs"]["steps"]:
            inner = self.contexts(inputs=inputs, steps=steps_context)
            inner.update(github=github, env={**inner["env"], **step_env})
            if not condition_holds(step.get("if"), inner, self.failed):
                continue
            if "uses" in step:
                for value in step.get("with", {}).values():
                    interpolate(value, inner, self.failed)
                continue
            if step.get("shell") != "bash":
                fail(f"{uses}: the step '{step.get('id')}' has shell '{step.get('shell')}', not bash")
            env = {**step_env, **{key: interpolate(value, inner) for key, value in step.get("env", {}).items()},
                   "GITHUB_ACTION_PATH": folder}
            cwd = os.path.join(self.work, interpolate(step.get("working-directory", "."), inner))
            outputs = self.shell(interpolate(step["run"], inner), cwd, env, f"{uses} {step.get('id', '')}")
            if "id" in step:
                steps_context[step["id"]] = {"outputs": outputs}
        outer = self.contexts(inputs=inputs, steps=steps_context)
        return {name: interpolate(declaration["value"], outer) for name, declaration in spec.get("outputs", {}).items()}


def github_run(sandbox, recipe, event, grow, name):
    """One workflow run of the recipe's one job: a GitHubJob, its first failing status (or 0) and output."""
    work = os.path.join(sandbox.folder, name)
    os.makedirs(work)
    app_folder(os.path.join(work, "Assets"), grow=grow)
    env = dict(recipe.get("env", {}))
    env.update(TESSERA_RELEASE_URL=sandbox.release_url, TESSERA_SERVER=sandbox.server_url)
    (job,) = recipe["jobs"].values()
    runner = GitHubJob(sandbox, work, event, env, {"TESSERA_PUBLISH_TOKEN": sandbox.token})
    runner.run_steps(job["steps"])
    return runner


def tessera_outputs(runner, what):
    if len(runner.actions) != 1:
        fail(f"the GitHub recipe {what} ran Tessera's action {len(runner.actions)} times, not once:\n{runner.output[-3000:]}")
    return runner.actions[0]


def expect_outputs(outputs, expected, what, runner):
    for name, value in expected.items():
        if outputs.get(name) != value:
            fail(f"the action {what} gave the output {name}={outputs.get(name)!r}, not {value!r} (all: {outputs}):\n{runner.output[-3000:]}")


def check_github(sandbox):
    recipe = recipe_of("### GitHub Actions")
    version = re.search(r"tessera-([^-]+)-linux", os.path.basename(sandbox.tarball)).group(1)
    default = yaml.safe_load(open(os.path.join(ROOT, "action.yml")))["inputs"]["version"]["default"]
    if default != version:
        fail(f"action.yml installs {default} by default, the release is {version} (docs/releasing.md)")
    named = os.path.basename(str(recipe.get("env", {}).get("TESSERA_RELEASE_URL", "")))
    if named != os.path.basename(sandbox.tarball):
        fail(f"docs/ci.md's GitHub recipe downloads {named}, the release is {os.path.basename(sandbox.tarball)}")
    main = github_run(sandbox, recipe, "push", grow=False, name="gh-main")
    if main.status != 0:
        fail(f"the GitHub recipe on main exited {main.status}:\n{main.output[-3000:]}")
    outputs = tessera_outputs(main, "on main")
    # Main's first build: the channel does not exist yet, so there is nothing to compare with.
    expect_outputs(outputs, {"status": "0", "over-budget": "false", "published": "true", "base": "", "build": "build"},
                   "on main's first push", main)
    if not re.fullmatch(r"[\d.]+", outputs["version"]) or not outputs["tessera"].endswith("/bin/tessera"):
        fail(f"the action on main named no version or binary: {outputs}")
    if "No previous build" not in open(main.summary).read():
        fail("the action on main's first push did not say in the summary that it had nothing to compare with")
    with urllib.request.urlopen(f"{sandbox.server_url}/v1/channels/main/manifest") as answer:
        published = json.load(answer)
    if published != json.load(open(os.path.join(main.work, "build", "manifest.json"))):
        fail("the channel main does not serve the manifest main's build wrote")

    same = github_run(sandbox, recipe, "pull_request", grow=False, name="gh-pr-same")
    if same.status != 0:
        fail(f"the GitHub recipe on an unchanged pull request exited {same.status}:\n{same.output[-3000:]}")
    outputs = tessera_outputs(same, "on a pull request")
    expect_outputs(outputs, {"status": "0", "over-budget": "false", "published": "false",
                             "base": f"{sandbox.server_url}/v1/channels/main",
                             "report": os.path.join(same.work, "build"),
                             "markdown": os.path.join(same.work, "build", "size-report.md")}, "on an unchanged pull request", same)
    summary = open(same.summary).read()
    if "|" not in summary or "iPhone" not in summary:
        fail(f"the GitHub recipe wrote no Markdown size table to the step summary:\n{summary[:2000]}")
    if summary.strip() != open(outputs["markdown"]).read().strip():
        fail(f"the step summary is not the report's Markdown:\n{summary[:2000]}")
    if not os.path.exists(os.path.join(outputs["report"], "size-report.html")):
        fail("the action's report folder holds no size-report.html")

    grown = github_run(sandbox, recipe, "pull_request", grow=True, name="gh-pr-grown")
    if grown.status != 3:
        fail(f"the GitHub recipe on a pull request adding a large image exited {grown.status}, not 3:\n{grown.output[-3000:]}")
    expect_outputs(tessera_outputs(grown, "on a growing pull request"), {"status": "3", "over-budget": "true", "published": "false"},
                   "on a pull request adding a large image", grown)
    if "growth" not in open(grown.summary).read().lower():
        fail(f"the over-budget step summary names no growth budget:\n{open(grown.summary).read()[:2000]}")
    if "::error title=Tessera size budget::" not in grown.output:
        fail(f"the action on an over-budget pull request printed no error annotation:\n{grown.output[-3000:]}")
    # Built against main's build, the run annotates only files the pull request added or changed
    # (the large image has no problem); main's own problems on unchanged files are one notice.
    if re.search(r"^::(warning|error) file=", grown.output, flags=re.M):
        fail(f"tessera annotated files the pull request did not change:\n{grown.output[-3000:]}")
    if not re.search(r"^::notice title=Tessera::\d+ problems? on files unchanged since the previous build", grown.output, flags=re.M):
        fail(f"tessera printed no notice counting the problems on unchanged files:\n{grown.output[-3000:]}")

    # `against` in its other forms, the grown pull request's build reused (`build: false`) and the
    # release found where the run above installed it: a downloaded artifact's folder (the build two
    # levels down), a static host's manifest.json URL, a base that does not exist (a warning, or
    # with require-base an error).
    artifact = os.path.join(grown.work, "previous")
    shutil.copytree(os.path.join(main.work, "build"), os.path.join(artifact, "size-report", "build"))
    static = serve_folder(os.path.join(main.work, "build")) + "/manifest.json"
    cases = [({"against": "previous"}, 3, "previous/size-report/build/manifest.json"),
             ({"against": static}, 3, static),
             ({"against": "no-such-build"}, 0, ""),
             ({"against": f"{sandbox.server_url}/v1/channels/no-such-channel", "require-base": "true"}, 1, None)]
    for number, (inputs, expected, base) in enumerate(cases):
        if number == 0:
            # No release-url and no TESSERA_RELEASE_URL: the action's repository's GitHub release,
            # with github.server_url a local server holding that release's path, into a new $HOME.
            releases = os.path.join(sandbox.folder, "github-releases")
            download = os.path.join(releases, "OWNER", "tessera", "releases", "download", f"v{version}")
            os.makedirs(download)
            shutil.copy(sandbox.tarball, download)
            runner = GitHubJob(sandbox, grown.work, "pull_request", {}, {}, files=".runner-release", home="home-release")
            runner.github["server_url"] = serve_folder(releases)
            runner.run_steps([{"uses": f"OWNER/tessera@v{version}", "with": {"build": "false", "max-asset-growth": "200KB", "artifact-name": "", **inputs}}])
            if runner.status != 3 or "downloading " + runner.github["server_url"] + "/OWNER/tessera/releases/download" not in runner.output:
                fail(f"the action without a release URL did not take the release from its repository's GitHub release:\n{runner.output[-3000:]}")
        runner = GitHubJob(sandbox, grown.work, "pull_request", {"TESSERA_RELEASE_URL": sandbox.release_url}, {},
                           files=f".runner-{number}")
        runner.run_steps([{"uses": "./.github/actions/tessera",
                           "with": {"build": "false", "max-asset-growth": "200KB", "artifact-name": "", **inputs}}])
        if runner.status != expected:
            fail(f"the action against {inputs} exited {runner.status}, not {expected}:\n{runner.output[-3000:]}")
        if "is there already" not in runner.output:
            fail(f"the action installed the release again where it was installed already:\n{runner.output[-3000:]}")
        if base is not None:
            expect_outputs(runner.actions[0], {"status": str(expected), "base": base}, f"against {inputs}", runner)
        elif "::error " not in runner.output:
            fail(f"the action against {inputs} failed with no error annotation:\n{runner.output[-3000:]}")
    print(f"test-docs: GitHub recipe ran (Tessera's action expanded, {main.steps_run} steps on main: built, published; "
          f"a pull request within budget 0, over budget 3, outputs and summary checked; {len(cases)} other bases; "
          "the release from the action's GitHub release)", file=sys.stderr)


def gitlab_rule_holds(rule, variables):
    match = re.fullmatch(r'\$(\w+) == (?:\$(\w+)|"([^"]*)")', rule["if"])
    if not match:
        fail(f"the GitLab recipe's rule '{rule['if']}' is not one this test knows")
    left = variables.get(match.group(1), "")
    right = variables.get(match.group(2), "") if match.group(2) else match.group(3)
    return left == right


def gitlab_run(sandbox, recipe, catcher, merge_request, grow, name):
    work = os.path.join(sandbox.folder, name)
    os.makedirs(work)
    app_folder(os.path.join(work, "Assets"), grow=grow)
    variables = {key: str(value) for key, value in recipe.get("variables", {}).items()}
    variables.update(TESSERA_RELEASE_URL=sandbox.release_url, TESSERA_SERVER=sandbox.server_url,
                     TESSERA_PUBLISH_TOKEN=sandbox.token, GITLAB_API_TOKEN="gitlab-token", GITLAB_CI="true",
                     CI_PROJECT_DIR=work, CI_DEFAULT_BRANCH="main", CI_API_V4_URL=catcher.url, CI_PROJECT_ID="7")
    if merge_request:
        variables.update(CI_PIPELINE_SOURCE="merge_request_event", CI_MERGE_REQUEST_IID="42")
    else:
        variables.update(CI_PIPELINE_SOURCE="push", CI_COMMIT_BRANCH="main")
    jobs = [(key, job) for key, job in recipe.items() if isinstance(job, dict) and not key.startswith(".") and "script" in job]
    chosen = [(key, job) for key, job in jobs if all(gitlab_rule_holds(rule, variables) for rule in job.get("rules", []))]
    if len(chosen) != 1:
        fail(f"the GitLab recipe runs {[key for key, _ in chosen]} for this pipeline, not one job")
    key, job = chosen[0]
    template = recipe.get(job.get("extends", ""), {})
    lines = template.get("before_script", []) + job.get("before_script", []) + job["script"]
    status, output = run("\n".join(lines), work, sandbox.environment(os.path.join(work, "home"), **variables))
    return key, status, output


def check_gitlab(sandbox):
    recipe = recipe_of("### GitLab CI")
    catcher = NoteCatcher()
    key, status, output = gitlab_run(sandbox, recipe, catcher, merge_request=False, grow=False, name="gl-main")
    if status != 0:
        fail(f"the GitLab recipe's {key} exited {status}:\n{output[-3000:]}")
    key, status, output = gitlab_run(sandbox, recipe, catcher, merge_request=True, grow=False, name="gl-mr-same")
    if status != 0 or len(catcher.notes) != 1:
        fail(f"the GitLab recipe's {key} on an unchanged merge request exited {status} with {len(catcher.notes)} notes:\n{output[-3000:]}")
    key, status, output = gitlab_run(sandbox, recipe, catcher, merge_request=True, grow=True, name="gl-mr-grown")
    if status != 3 or len(catcher.notes) != 2:
        fail(f"the GitLab recipe's {key} on a merge request adding a large image exited {status} (not 3) with {len(catcher.notes)} notes:\n{output[-3000:]}")
    for note in catcher.notes:
        if note["path"] != "/api/v4/projects/7/merge_requests/42/notes" or note["token"] != "gitlab-token" or "iPhone" not in note["body"]:
            fail(f"the GitLab recipe's note went wrong: {json.dumps(note)[:1000]}")
    if "growth" not in catcher.notes[1]["body"].lower():
        fail("the over-budget merge-request note names no growth budget")
    if not os.path.exists(os.path.join(sandbox.folder, "gl-mr-grown", "build", "gl-code-quality-report.json")):
        fail("the GitLab recipe's code-quality report was not written where its artifacts name it")
    print("test-docs: GitLab recipe ran (main publishes; a merge request within budget 0, over budget 3; both commented)", file=sys.stderr)


class WebDAVCache:
    """nginx-light with WebDAV on a free loopback port: a Bazel HTTP remote cache."""
    def __init__(self, folder):
        self.folder = folder
        os.makedirs(f"{folder}/store")
        port = free_port()
        user = "user root root;" if os.getuid() == 0 else ""
        with open(f"{folder}/nginx.conf", "w") as conf:
            conf.write(f"""{user} daemon off; worker_processes 1; pid {folder}/nginx.pid; error_log {folder}/error.log;
events {{ worker_connections 512; }}
http {{ access_log off; client_max_body_size 0; client_body_temp_path {folder}/body;
  server {{ listen 127.0.0.1:{port}; root {folder}/store;
    dav_methods PUT DELETE; create_full_put_path on; dav_access user:rw group:rw all:r; }} }}
""")
        self.process = subprocess.Popen(["/usr/sbin/nginx", "-p", folder, "-c", f"{folder}/nginx.conf"])
        for _ in range(50):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        self.url = f"http://127.0.0.1:{port}/cache"

    def close(self):
        self.process.terminate()
        self.process.wait()


def check_github_sharded(sandbox, cache, reference):
    recipe = recipe_of("### Sharded builds on GitHub Actions")
    work = os.path.join(sandbox.folder, "gh-sharded")
    artifacts = os.path.join(work, ".artifacts")
    os.makedirs(artifacts)
    secrets = {"TESSERA_CACHE_TOKEN": "cache-token", "TESSERA_CACHE_KEY": "0123456789abcdef0123456789abcdef"}

    def run_job(name, job, matrix):
        checkout = os.path.join(work, f"{name}-{matrix or 0}")
        app_folder(os.path.join(checkout, "Assets"))
        context = {"github": {"event_name": "push"}, "matrix": {"shard": matrix}, "secrets": secrets}
        env = {key: interpolate(value, context) for key, value in recipe.get("env", {}).items()}
        env.update(TESSERA_RELEASE_URL=sandbox.release_url, TESSERA_REMOTE_CACHE=cache.url)
        runner = GitHubJob(sandbox, checkout, "push", env, secrets, matrix={"shard": matrix}, artifacts=artifacts)
        runner.run_steps(job["steps"])
        if runner.status != 0:
            fail(f"the sharded GitHub recipe's {name} {matrix or ''} exited {runner.status}:\n{runner.output[-3000:]}")
        if len(runner.actions) != 1 or runner.actions[0]["status"] != "" or runner.actions[0]["published"] != "false":
            fail(f"the sharded GitHub recipe's {name} did not use Tessera's action once, to install only: {runner.actions}")
        return checkout

    shard = recipe["jobs"]["shard"]
    for value in shard["strategy"]["matrix"]["shard"]:
        run_job("shard", shard, value)
    merged = run_job("merge", recipe["jobs"]["merge"], None)
    built = open(os.path.join(merged, "build", "assets", "manifest.json"), "rb").read()
    if built != open(reference, "rb").read():
        fail("the sharded GitHub recipe's merged manifest differs from an unsharded build's")
    print(f"test-docs: sharded GitHub recipe ran ({len(shard['strategy']['matrix']['shard'])} shards and a merge through nginx WebDAV; "
          "the manifest is the unsharded build's)", file=sys.stderr)


def check_gitlab_sharded(sandbox, cache, reference):
    recipe = recipe_of("### Sharded builds on GitLab CI")
    work = os.path.join(sandbox.folder, "gl-sharded")
    artifacts = os.path.join(work, ".artifacts")
    os.makedirs(artifacts)
    variables = {key: str(value) for key, value in recipe.get("variables", {}).items()}
    variables.update(TESSERA_RELEASE_URL=sandbox.release_url, TESSERA_REMOTE_CACHE=cache.url,
                     TESSERA_REMOTE_CACHE_TOKEN="cache-token", CI_PIPELINE_SOURCE="push", GITLAB_CI="true")

    def run_job(name, index, total):
        job = recipe[name]
        checkout = os.path.join(work, f"{name}-{index}")
        app_folder(os.path.join(checkout, "Assets"))
        for path in os.listdir(artifacts):
            target = os.path.join(checkout, os.path.dirname(path.replace("__", "/")))
            os.makedirs(target, exist_ok=True)
            shutil.copy(os.path.join(artifacts, path), os.path.join(checkout, path.replace("__", "/")))
        template = recipe.get(job.get("extends", ""), {})
        lines = template.get("before_script", []) + job.get("before_script", []) + job["script"]
        extra = {"CI_NODE_INDEX": str(index), "CI_NODE_TOTAL": str(total), "CI_PROJECT_DIR": checkout, "CI_JOB_NAME": name}
        status, output = run("\n".join(lines), checkout, sandbox.environment(os.path.join(checkout, "home"), **variables, **extra))
        if status != 0:
            fail(f"the sharded GitLab recipe's {name} {index}/{total} exited {status}:\n{output[-3000:]}")
        for pattern in job.get("artifacts", {}).get("paths", []):
            for path in glob.glob(os.path.join(checkout, pattern)):
                if os.path.isfile(path):
                    shutil.copy(path, os.path.join(artifacts, os.path.relpath(path, checkout).replace("/", "__")))
        return checkout

    total = recipe["shard"]["parallel"]
    for index in range(1, total + 1):
        run_job("shard", index, total)
    merged = run_job("merge", 1, 1)
    if open(os.path.join(merged, "build", "assets", "manifest.json"), "rb").read() != open(reference, "rb").read():
        fail("the sharded GitLab recipe's merged manifest differs from an unsharded build's")
    print(f"test-docs: sharded GitLab recipe ran ({total} shards and a merge; the manifest is the unsharded build's)", file=sys.stderr)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    tarball = os.path.abspath(sys.argv[1])
    if os.getuid() != 0:
        fail("needs root: the recipes install packages with apt-get")
    sandbox = Sandbox(tarball)
    try:
        check_readme(sandbox)
        check_github(sandbox)
        check_gitlab(sandbox)
        reference = os.path.join(sandbox.folder, "gh-main", "build", "manifest.json")
        cache = WebDAVCache(os.path.join(sandbox.folder, "webdav"))
        try:
            check_github_sharded(sandbox, cache, reference)
            check_gitlab_sharded(sandbox, cache, reference)
        finally:
            cache.close()
    finally:
        sandbox.close()


if __name__ == "__main__":
    main()
