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
  `bash -eo pipefail`, `$GITHUB_PATH` and `$GITHUB_STEP_SUMMARY` files; GitLab: before_script and
  script in one `set -eo pipefail` shell, job rules evaluated), against a real `tessera serve`, a
  local server for the release URL and, for GitLab's merge-request note, a local API that keeps
  what it is sent. Three runs each: the main branch (publishes), a pull request within its
  budgets (exit 0, the summary written), and one that adds a large image (exit 3). `uses:` steps
  (checkout, cache, artifacts) are the CI system's own and are not run.

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


def github_run(sandbox, recipe, event, grow, name):
    """One workflow run; returns (status of the first failing step or 0, its output, the step summary)."""
    work = os.path.join(sandbox.folder, name)
    os.makedirs(work)
    app_folder(os.path.join(work, "Assets"), grow=grow)
    github_path = os.path.join(work, ".github_path")
    summary = os.path.join(work, ".step_summary")
    open(github_path, "w").close()
    open(summary, "w").close()
    env = dict(recipe.get("env", {}))
    env.update(TESSERA_RELEASE_URL=sandbox.release_url, TESSERA_SERVER=sandbox.server_url)
    (job,) = recipe["jobs"].values()
    ran = 0
    for step in job["steps"]:
        if "run" not in step:
            continue
        condition = step.get("if", "true")
        if condition == "always()":
            pass
        elif (match := re.fullmatch(r"github\.event_name == '(\w+)'", condition)):
            if match.group(1) != event:
                continue
        elif condition != "true":
            fail(f"the GitHub recipe's condition '{condition}' is not one this test knows")
        step_env = {key: str(value).replace("${{ secrets.TESSERA_PUBLISH_TOKEN }}", sandbox.token)
                    for key, value in step.get("env", {}).items()}
        if any("${{" in value for value in step_env.values()):
            fail(f"the GitHub recipe's step '{step.get('name')}' uses an expression this test does not know")
        path_entries = [line for line in open(github_path).read().split("\n") if line]
        environment = sandbox.environment(os.path.join(work, "home"), **env, **step_env,
                                          GITHUB_ACTIONS="true", GITHUB_WORKSPACE=work, GITHUB_EVENT_NAME=event,
                                          GITHUB_PATH=github_path, GITHUB_STEP_SUMMARY=summary)
        environment["PATH"] = ":".join(reversed(path_entries)) + ":" + environment["PATH"] if path_entries else environment["PATH"]
        status, output = run(step["run"], work, environment)
        ran += 1
        if status != 0:
            return status, output, open(summary).read(), ran
    return 0, "", open(summary).read(), ran


def check_github(sandbox):
    recipe = recipe_of("### GitHub Actions")
    status, output, _, ran = github_run(sandbox, recipe, "push", grow=False, name="gh-main")
    if status != 0:
        fail(f"the GitHub recipe on main exited {status}:\n{output[-3000:]}")
    status, output, summary, _ = github_run(sandbox, recipe, "pull_request", grow=False, name="gh-pr-same")
    if status != 0:
        fail(f"the GitHub recipe on an unchanged pull request exited {status}:\n{output[-3000:]}")
    if "|" not in summary or "iPhone" not in summary:
        fail(f"the GitHub recipe wrote no Markdown size table to the step summary:\n{summary[:2000]}")
    status, output, summary, _ = github_run(sandbox, recipe, "pull_request", grow=True, name="gh-pr-grown")
    if status != 3:
        fail(f"the GitHub recipe on a pull request adding a large image exited {status}, not 3:\n{output[-3000:]}")
    if "growth" not in summary.lower():
        fail(f"the over-budget step summary names no growth budget:\n{summary[:2000]}")
    print(f"test-docs: GitHub recipe ran ({ran} steps on main; a pull request within budget 0, over budget 3)", file=sys.stderr)


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


def expand(value, context):
    """GitHub's `${{ … }}` as the recipes use it: matrix values, secrets, and `A == 'x' && B || C`."""
    def one(match):
        expression = match.group(1).strip()
        if expression in context:
            return context[expression]
        conditional = re.fullmatch(r"github\.event_name == '(\w+)' && (\S+) \|\| '([^']*)'", expression)
        if conditional:
            chosen = conditional.group(2)
            if context["github.event_name"] != conditional.group(1):
                return conditional.group(3)
            return chosen.strip("'") if chosen.startswith("'") else context.get(chosen, "")
        fail(f"the GitHub recipe's expression '{expression}' is not one this test knows")
    return re.sub(r"\$\{\{(.*?)\}\}", one, str(value))


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
    secrets = {"secrets.TESSERA_CACHE_TOKEN": "cache-token", "secrets.TESSERA_CACHE_KEY": "0123456789abcdef0123456789abcdef"}

    def run_job(name, job, matrix):
        checkout = os.path.join(work, f"{name}-{matrix or 0}")
        app_folder(os.path.join(checkout, "Assets"))
        context = {"github.event_name": "push", "matrix.shard": str(matrix), **secrets}
        env = {key: expand(value, context) for key, value in recipe.get("env", {}).items()}
        env.update(TESSERA_RELEASE_URL=sandbox.release_url, TESSERA_REMOTE_CACHE=cache.url)
        github_path = os.path.join(checkout, ".github_path")
        open(github_path, "w").close()
        for step in job["steps"]:
            uses = step.get("uses", "")
            if uses.startswith("actions/upload-artifact"):
                for path in glob.glob(os.path.join(checkout, step["with"]["path"])):
                    if os.path.isfile(path):
                        shutil.copy(path, artifacts)
                continue
            if uses.startswith("actions/download-artifact"):
                target = os.path.join(checkout, step["with"]["path"])
                shutil.copytree(artifacts, target, dirs_exist_ok=True)
                continue
            if "run" not in step:
                continue
            step_env = {key: expand(value, context) for key, value in step.get("env", {}).items()}
            path_entries = [line for line in open(github_path).read().split("\n") if line]
            environment = sandbox.environment(os.path.join(checkout, "home"), **env, **step_env, GITHUB_PATH=github_path)
            environment["PATH"] = ":".join(reversed(path_entries)) + ":" + environment["PATH"] if path_entries else environment["PATH"]
            status, output = run(expand(step["run"], context), checkout, environment)
            if status != 0:
                fail(f"the sharded GitHub recipe's {name} {matrix or ''} step '{step.get('name')}' exited {status}:\n{output[-3000:]}")
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
