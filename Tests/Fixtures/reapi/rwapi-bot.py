#!/usr/bin/env python3
"""A Remote Workers API (google.devtools.remoteworkers.v1test2) bot for BuildGrid 0.9.1.

TEST FIXTURE, NOT PRODUCT. Tessera's tests start it (Tests/TestServers/BuildGridServer.swift) as the
worker of a throwaway BuildGrid; nothing in Tessera ships or runs it. It has no sandbox: each action's
command runs directly in a fresh temporary folder (the materialised input root; $TMPDIR) with only the
Command's environment variables. One bot runs one action at a time.

Usage, with the BuildGrid venv's python (it has grpcio and buildgrid's generated protos), which
scripts/ensure-reapi-servers.sh installs:
    rwapi-bot.py --target 127.0.0.1:PORT [--instance NAME] [--bot-id ID] [--capacity N]
                 [--property OSFamily=linux --property ISA=x86-64] [--max-leases N] [--keep]
It logs "session NAME" to stderr once BuildGrid has registered it.

The protocol, as BuildGrid 0.9.1 implements it (buildgrid/server/bots, scheduler/impl.py):
  * CreateBotSession(parent=INSTANCE, bot_session{bot_id, status=OK, worker{devices[0].properties,
    configs[capacity]}}) -> a session with a server-assigned name; it may already carry leases.
  * A lease arrives with state ACTIVE; its payload is Any(Action) (or Any(Digest) of the action);
    lease.id = "INSTANCE/JOB".
  * The bot runs it, uploads outputs and stdout/stderr to CAS itself, then sets lease.state=COMPLETED,
    lease.status (google.rpc.Status; OK even when the command exits non-zero), lease.result=Any(ActionResult)
    and sends the whole session back with UpdateBotSession(name=session.name, bot_session=...).
    The server long-polls UpdateBotSession until a new lease is assigned or the deadline nears.
  * The server fills the ExecutedActionMetadata timestamps and writes the action cache entry (unless
    do_not_cache or a non-OK status).
"""
import argparse
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid

import grpc
from buildgrid._protos.build.bazel.remote.execution.v2 import remote_execution_pb2 as re_pb2
from buildgrid._protos.build.bazel.remote.execution.v2 import remote_execution_pb2_grpc as re_grpc
from buildgrid._protos.google.bytestream import bytestream_pb2, bytestream_pb2_grpc
from buildgrid._protos.google.devtools.remoteworkers.v1test2 import bots_pb2, bots_pb2_grpc, worker_pb2
from buildgrid._protos.google.rpc import code_pb2

BATCH_LIMIT = 3 * 1024 * 1024  # stay under BuildGrid's 4 MiB max_batch_total_size_bytes


def log(*a):
    print(time.strftime("%H:%M:%S"), "[bot]", *a, file=sys.stderr, flush=True)


def digest_of(data):
    return re_pb2.Digest(hash=hashlib.sha256(data).hexdigest(), size_bytes=len(data))


class Cas:
    def __init__(self, channel, instance):
        self.instance = instance
        self.cas = re_grpc.ContentAddressableStorageStub(channel)
        self.bs = bytestream_pb2_grpc.ByteStreamStub(channel)

    def _rn(self, *parts):
        return "/".join(([self.instance] if self.instance else []) + list(parts))

    def read(self, d):
        if d.size_bytes == 0:
            return b""
        if d.size_bytes <= BATCH_LIMIT:
            r = self.cas.BatchReadBlobs(re_pb2.BatchReadBlobsRequest(instance_name=self.instance, digests=[d]))
            resp = r.responses[0]
            if resp.status.code != code_pb2.OK:
                raise RuntimeError(f"read {d.hash}: {resp.status.message}")
            return resp.data
        name = self._rn("blobs", d.hash, str(d.size_bytes))
        return b"".join(x.data for x in self.bs.Read(bytestream_pb2.ReadRequest(resource_name=name)))

    def upload(self, blobs):
        """blobs: dict hash -> bytes"""
        if not blobs:
            return
        digests = [digest_of(b) for b in blobs.values()]
        missing = self.cas.FindMissingBlobs(re_pb2.FindMissingBlobsRequest(
            instance_name=self.instance, blob_digests=digests)).missing_blob_digests
        batch, size = [], 0
        for d in missing:
            data = blobs[d.hash]
            if d.size_bytes > BATCH_LIMIT:
                name = self._rn("uploads", str(uuid.uuid4()), "blobs", d.hash, str(d.size_bytes))
                ch = 1 << 20
                offs = list(range(0, len(data), ch))
                self.bs.Write(iter([bytestream_pb2.WriteRequest(
                    resource_name=name if off == 0 else "", write_offset=off,
                    finish_write=(off == offs[-1]), data=data[off:off + ch]) for off in offs]))
                continue
            if size + d.size_bytes > BATCH_LIMIT:
                self._flush(batch)
                batch, size = [], 0
            batch.append(re_pb2.BatchUpdateBlobsRequest.Request(digest=d, data=data))
            size += d.size_bytes
        self._flush(batch)

    def _flush(self, batch):
        if batch:
            r = self.cas.BatchUpdateBlobs(re_pb2.BatchUpdateBlobsRequest(instance_name=self.instance, requests=batch))
            for x in r.responses:
                if x.status.code != code_pb2.OK:
                    raise RuntimeError(f"upload {x.digest.hash}: {x.status.message}")

    def materialise(self, dir_digest, path):
        d = re_pb2.Directory()
        d.ParseFromString(self.read(dir_digest))
        os.makedirs(path, exist_ok=True)
        for f in d.files:
            p = os.path.join(path, f.name)
            with open(p, "wb") as fh:
                fh.write(self.read(f.digest))
            os.chmod(p, 0o755 if f.is_executable else 0o644)
        for s in d.symlinks:
            os.symlink(s.target, os.path.join(path, s.name))
        for sub in d.directories:
            self.materialise(sub.digest, os.path.join(path, sub.name))


def capture_dir(path, blobs):
    """Returns (Directory proto, list of child Directory protos) for a Tree; adds file blobs to blobs."""
    d = re_pb2.Directory()
    children = []
    for name in sorted(os.listdir(path)):
        p = os.path.join(path, name)
        if os.path.islink(p):
            d.symlinks.add(name=name, target=os.readlink(p))
        elif os.path.isdir(p):
            sub, subch = capture_dir(p, blobs)
            data = sub.SerializeToString()
            d.directories.add(name=name, digest=digest_of(data))
            children.append(sub)
            children.extend(subch)
        else:
            data = open(p, "rb").read()
            blobs[digest_of(data).hash] = data
            d.files.add(name=name, digest=digest_of(data), is_executable=os.access(p, os.X_OK))
    return d, children


def run_action(cas, action, workroot):
    cmd = re_pb2.Command()
    cmd.ParseFromString(cas.read(action.command_digest))
    root = os.path.join(workroot, "root")
    cas.materialise(action.input_root_digest, root)
    cwd = os.path.join(root, cmd.working_directory)
    outputs = list(cmd.output_paths) or list(cmd.output_files) + list(cmd.output_directories)
    for o in outputs:  # REAPI: the worker creates parents of output paths
        os.makedirs(os.path.dirname(os.path.join(cwd, o)) or cwd, exist_ok=True)
    env = {e.name: e.value for e in cmd.environment_variables}
    timeout = action.timeout.seconds or None
    argv = list(cmd.arguments)
    if argv and "/" in argv[0] and not os.path.isabs(argv[0]):
        argv[0] = os.path.join(cwd, argv[0])  # relative to the working directory, as REAPI says
    t0 = time.time()
    try:
        p = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, timeout=timeout)
        exit_code, out, err = p.returncode, p.stdout, p.stderr
        status = code_pb2.OK
    except subprocess.TimeoutExpired as e:
        exit_code, out, err, status = -1, e.stdout or b"", e.stderr or b"", code_pb2.DEADLINE_EXCEEDED
    except OSError as e:
        exit_code, out, err, status = 127, b"", str(e).encode(), code_pb2.OK
    blobs = {digest_of(out).hash: out, digest_of(err).hash: err}
    ar = re_pb2.ActionResult(exit_code=exit_code, stdout_digest=digest_of(out), stderr_digest=digest_of(err))
    for o in sorted(outputs):
        p = os.path.join(cwd, o)
        if os.path.islink(p):
            ar.output_symlinks.add(path=o, target=os.readlink(p))
        elif os.path.isfile(p):
            data = open(p, "rb").read()
            blobs[digest_of(data).hash] = data
            ar.output_files.add(path=o, digest=digest_of(data), is_executable=os.access(p, os.X_OK))
        elif os.path.isdir(p):
            rootd, children = capture_dir(p, blobs)
            tree = re_pb2.Tree(root=rootd, children=children)
            tdata = tree.SerializeToString()
            blobs[digest_of(tdata).hash] = tdata
            ar.output_directories.add(path=o, tree_digest=digest_of(tdata))
    cas.upload(blobs)
    ar.execution_metadata.worker = os.uname().nodename
    log(f"ran {argv[:3]} exit={exit_code} in {time.time()-t0:.3f}s outputs={[f.path for f in ar.output_files]}")
    return ar, status


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--target", required=True)
    ap.add_argument("--instance", default="")
    ap.add_argument("--bot-id", default=f"tessera-test-bot-{os.getpid()}")
    ap.add_argument("--capacity", type=int, default=1)
    ap.add_argument("--property", action="append", default=[], help="device property K=V (e.g. OSFamily=linux)")
    ap.add_argument("--poll-timeout", type=float, default=5.0)
    ap.add_argument("--max-leases", type=int, default=0, help="exit after N leases (0 = forever)")
    ap.add_argument("--keep", action="store_true", help="keep work dirs")
    args = ap.parse_args()

    channel = grpc.insecure_channel(args.target)
    bots = bots_pb2_grpc.BotsStub(channel)
    cas = Cas(channel, args.instance)
    worker = worker_pb2.Worker()
    dev = worker.devices.add(handle=args.bot_id)
    for kv in args.property or ["OSFamily=linux", "ISA=x86-64"]:
        k, v = kv.split("=", 1)
        dev.properties.add(key=k, value=v)
    worker.configs.add(key="capacity", value=str(args.capacity))
    session = bots_pb2.BotSession(bot_id=args.bot_id, status=bots_pb2.OK, worker=worker)

    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    # Short deadline: the server long-polls CreateBotSession for a first lease until just before it.
    session = bots.CreateBotSession(bots_pb2.CreateBotSessionRequest(parent=args.instance, bot_session=session),
                                    timeout=1.0)
    log("session", session.name, "leases", len(session.leases))
    done = 0
    while not stop:
        for lease in session.leases:
            if lease.state != bots_pb2.ACTIVE:
                continue
            action = re_pb2.Action()
            if lease.payload.Is(re_pb2.Action.DESCRIPTOR):
                lease.payload.Unpack(action)
            else:
                d = re_pb2.Digest()
                lease.payload.Unpack(d)
                action.ParseFromString(cas.read(d))
            work = tempfile.mkdtemp(prefix="rwapi-bot-")
            try:
                ar, st = run_action(cas, action, work)
                lease.result.Pack(ar)
                lease.status.code = st
            except Exception as e:  # noqa: BLE001 - report infrastructure failure on the lease
                log("lease", lease.id, "failed:", e)
                lease.status.code = code_pb2.INTERNAL
                lease.status.message = str(e)
            finally:
                if not args.keep:
                    shutil.rmtree(work, ignore_errors=True)
            lease.state = bots_pb2.COMPLETED
            done += 1
        if args.max_leases and done >= args.max_leases:
            # report the completion before leaving
            session = bots.UpdateBotSession(bots_pb2.UpdateBotSessionRequest(name=session.name, bot_session=session),
                                            timeout=args.poll_timeout)
            break
        try:
            session = bots.UpdateBotSession(bots_pb2.UpdateBotSessionRequest(name=session.name, bot_session=session),
                                            timeout=args.poll_timeout)
        except grpc.RpcError as e:
            if e.code() in (grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.UNAVAILABLE):
                time.sleep(0.2)
                continue
            raise
    log("exiting after", done, "lease(s)")


if __name__ == "__main__":
    main()
