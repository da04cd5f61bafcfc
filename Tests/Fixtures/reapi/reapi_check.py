#!/usr/bin/env python3
"""Proves a REAPI v2 server answers: a tiny client for Tests/TestServersTests (a test fixture).

Run with the BuildGrid venv's python (scripts/ensure-reapi-servers.sh), whose buildgrid._protos has
the REAPI, ByteStream and google.rpc messages and stubs:
    reapi_check.py --target 127.0.0.1:PORT [--instance NAME] [--tls-ca PEM] [--jwt-secret-file FILE] CHECK...
CHECK (one or more, run in the order given):
    caps   GetCapabilities
    cas    BatchUpdateBlobs, FindMissingBlobs, BatchReadBlobs, ByteStream Write/Read, and an
           UpdateActionResult/GetActionResult round trip
    exec   Execute `/bin/sh -c 'echo MESSAGE > out'` (empty input root) and read `out` back
Prints one JSON object, {CHECK: what it saw}, on stdout and exits 0, or prints the first failure on
stderr and exits 1.
"""
import argparse
import hashlib
import json
import os
import sys
import time
import uuid

import grpc
from buildgrid._protos.build.bazel.remote.execution.v2 import remote_execution_pb2 as re_pb2
from buildgrid._protos.build.bazel.remote.execution.v2 import remote_execution_pb2_grpc as re_grpc
from buildgrid._protos.google.bytestream import bytestream_pb2, bytestream_pb2_grpc

TIMEOUT = 30


def digest_of(data):
    return re_pb2.Digest(hash=hashlib.sha256(data).hexdigest(), size_bytes=len(data))


class Client:
    def __init__(self, target, instance, tls_ca, jwt_secret_file):
        if tls_ca:
            with open(tls_ca, "rb") as f:
                self.channel = grpc.secure_channel(target, grpc.ssl_channel_credentials(root_certificates=f.read()))
        else:
            self.channel = grpc.insecure_channel(target)
        self.metadata = []
        if jwt_secret_file:
            import jwt  # PyJWT, a BuildGrid dependency
            with open(jwt_secret_file) as f:
                secret = f.read().strip()  # BuildGrid strips the file too
            token = jwt.encode({"sub": "tessera-test", "exp": int(time.time()) + 600}, secret, algorithm="HS256")
            self.metadata = [("authorization", "Bearer " + token)]
        self.instance = instance
        self.cas = re_grpc.ContentAddressableStorageStub(self.channel)
        self.ac = re_grpc.ActionCacheStub(self.channel)
        self.capabilities = re_grpc.CapabilitiesStub(self.channel)
        self.execution = re_grpc.ExecutionStub(self.channel)
        self.bytestream = bytestream_pb2_grpc.ByteStreamStub(self.channel)

    def call(self, method, request):
        return method(request, timeout=TIMEOUT, metadata=self.metadata)

    def upload(self, blobs):
        requests = [re_pb2.BatchUpdateBlobsRequest.Request(digest=digest_of(b), data=b) for b in blobs]
        response = self.call(self.cas.BatchUpdateBlobs,
                             re_pb2.BatchUpdateBlobsRequest(instance_name=self.instance, requests=requests))
        for r in response.responses:
            if r.status.code != 0:
                raise RuntimeError(f"BatchUpdateBlobs {r.digest.hash}: {r.status.message}")

    def read(self, digest):
        if digest.size_bytes == 0:
            return b""
        response = self.call(self.cas.BatchReadBlobs,
                             re_pb2.BatchReadBlobsRequest(instance_name=self.instance, digests=[digest]))
        (r,) = response.responses
        if r.status.code != 0:
            raise RuntimeError(f"BatchReadBlobs {digest.hash}: {r.status.message}")
        return r.data

    def resource(self, *parts):
        return "/".join(([self.instance] if self.instance else []) + list(parts))


def check_caps(c, args):
    caps = c.call(c.capabilities.GetCapabilities, re_pb2.GetCapabilitiesRequest(instance_name=c.instance))
    cache = caps.cache_capabilities
    return {
        "digest_functions": [re_pb2.DigestFunction.Value.Name(d) for d in cache.digest_functions],
        "max_batch_total_size_bytes": cache.max_batch_total_size_bytes,
        "action_cache_update_enabled": cache.action_cache_update_capabilities.update_enabled,
        "exec_enabled": caps.execution_capabilities.exec_enabled,
        "high_api_version": f"{caps.high_api_version.major}.{caps.high_api_version.minor}",
    }


def check_cas(c, args):
    blobs = [b"hello tessera " + uuid.uuid4().bytes, os.urandom(1000), b""]
    c.upload(blobs)
    never = digest_of(b"never uploaded " + uuid.uuid4().bytes)
    missing = c.call(c.cas.FindMissingBlobs, re_pb2.FindMissingBlobsRequest(
        instance_name=c.instance, blob_digests=[digest_of(b) for b in blobs] + [never])).missing_blob_digests
    read_back = all(c.read(digest_of(b)) == b for b in blobs)

    big = os.urandom(256 * 1024)
    d = digest_of(big)
    upload = c.resource("uploads", str(uuid.uuid4()), "blobs", d.hash, str(d.size_bytes))
    chunks = [big[i:i + 65536] for i in range(0, len(big), 65536)]
    written = c.bytestream.Write(iter(bytestream_pb2.WriteRequest(
        resource_name=upload if i == 0 else "", write_offset=i * 65536, finish_write=i == len(chunks) - 1, data=chunk)
        for i, chunk in enumerate(chunks)), timeout=TIMEOUT, metadata=c.metadata).committed_size
    streamed = b"".join(r.data for r in c.bytestream.Read(bytestream_pb2.ReadRequest(
        resource_name=c.resource("blobs", d.hash, str(d.size_bytes))), timeout=TIMEOUT, metadata=c.metadata))

    # An action cache entry whose output is in CAS (both servers refuse entries with missing outputs).
    action = digest_of(b"tessera check action " + uuid.uuid4().bytes)
    result = re_pb2.ActionResult(exit_code=0, output_files=[re_pb2.OutputFile(path="out", digest=digest_of(blobs[0]))])
    c.call(c.ac.UpdateActionResult, re_pb2.UpdateActionResultRequest(
        instance_name=c.instance, action_digest=action, action_result=result))
    got = c.call(c.ac.GetActionResult, re_pb2.GetActionResultRequest(instance_name=c.instance, action_digest=action))
    return {
        "missing_after_upload": [m.hash for m in missing],
        "never_uploaded": never.hash,
        "read_back": read_back,
        "bytestream_committed": written,
        "bytestream_read_back": streamed == big,
        "action_cache_round_trip": got.output_files[0].digest == digest_of(blobs[0]),
    }


def check_exec(c, args):
    message = args.message or "hi-" + uuid.uuid4().hex[:8]
    root = re_pb2.Directory().SerializeToString()
    command = re_pb2.Command(arguments=["/bin/sh", "-c", f"echo {message} > out"], output_paths=["out"]).SerializeToString()
    action = re_pb2.Action(command_digest=digest_of(command), input_root_digest=digest_of(root)).SerializeToString()
    c.upload([root, command, action])
    operations = list(c.execution.Execute(re_pb2.ExecuteRequest(
        instance_name=c.instance, action_digest=digest_of(action), skip_cache_lookup=True),
        timeout=TIMEOUT, metadata=c.metadata))
    last = operations[-1]
    if not last.done:
        raise RuntimeError(f"the Execute stream ended without a done operation: {last}")
    if last.HasField("error"):
        raise RuntimeError(f"Execute failed: {last.error}")
    response = re_pb2.ExecuteResponse()
    last.response.Unpack(response)
    if response.status.code != 0:
        raise RuntimeError(f"ExecuteResponse.status: {response.status}")
    result = response.result
    files = {f.path: c.read(f.digest).decode(errors="replace") for f in result.output_files}
    stderr = c.read(result.stderr_digest).decode(errors="replace") if result.stderr_digest.hash else result.stderr_raw.decode()
    return {
        "message": message,
        "operations": len(operations),
        "exit_code": result.exit_code,
        "outputs": files,
        "stderr": stderr,
        "worker": result.execution_metadata.worker,
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--target", required=True, help="HOST:PORT")
    parser.add_argument("--instance", default="")
    parser.add_argument("--tls-ca", help="PEM certificate to trust: TLS instead of plaintext")
    parser.add_argument("--jwt-secret-file", help="send 'authorization: Bearer <HS256 JWT>' signed with it")
    parser.add_argument("--message", help="exec: what the action writes into `out`")
    parser.add_argument("checks", nargs="+", choices=["caps", "cas", "exec"], metavar="CHECK")
    args = parser.parse_args()
    client = Client(args.target, args.instance, args.tls_ca, args.jwt_secret_file)
    checks = {"caps": check_caps, "cas": check_cas, "exec": check_exec}
    report = {}
    for check in args.checks:
        try:
            report[check] = checks[check](client, args)
        except grpc.RpcError as e:
            print(f"{check}: {e.code().name}: {e.details()}", file=sys.stderr)
            sys.exit(1)
        except Exception as e:  # noqa: BLE001 - any failure is the answer
            print(f"{check}: {type(e).__name__}: {e}", file=sys.stderr)
            sys.exit(1)
    print(json.dumps(report, sort_keys=True))


if __name__ == "__main__":
    main()
