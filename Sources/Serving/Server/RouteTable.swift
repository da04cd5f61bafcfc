import Hummingbird

/// Every route of `tessera serve`, in groups: public reads of blobs, builds and channels, and the
/// writes, which only the write group's middleware guards (`BearerToken`). A write route added
/// anywhere else would be public; `RouteTableTests` enumerates the router's routes and fails on
/// any method other than GET and HEAD that answers without the token.
extension BuildServer {
    func addRoutes(to router: Router<ServeRequestContext>) {
        // A server whose build store does not answer is not healthy: load balancers should send
        // queries elsewhere (`503`, the reason in the body).
        router.get("/healthz") { _, _ in
            try await builds.checkHealth()
            return "ok\n"
        }
        addBlobReads(to: router.group())
        addBuildReads(to: router.group("/v1/builds"))
        addChannelReads(to: router.group("/v1/channels"))
        addWrites(to: router.group("/v1").add(middleware: writes))
    }

    /// Bundles (`/b/`) and objects (`/o/`): immutable, with Range and ETag (`BlobResponder`).
    private func addBlobReads(to group: RouterGroup<ServeRequestContext>) {
        for (path, responder) in [("/b/:file", bundles), ("/o/:file", objects),
                                  // Beside a channel's manifest, as `objects/<sha256>` is beside
                                  // `manifest.json` on a static host: a client resolves an object's
                                  // path against the manifest's URL on either.
                                  ("/v1/channels/:name/objects/:file", objects)] {
            for method in [HTTPRequest.Method.get, .head] {
                group.on(RouterPath(path), method: method) { request, context in
                    try responder.respond(to: request, context: context, fileName: try context.parameters.require("file"))
                }
            }
        }
    }

    private func addBuildReads(to group: RouterGroup<ServeRequestContext>) {
        group.get { request, _ in try await buildsWithPrefix(request) }
        group.get(":id") { _, context in try await buildRecord(try context.parameters.require("id")) }
        group.get(":id/manifest") { _, context in try await buildManifest(try context.parameters.require("id")) }
        group.get(":id/report") { _, context in try await buildReport(try context.parameters.require("id")) }
        group.get(":id/signatures/:channel") { _, context in
            try await signature(build: try context.parameters.require("id"), channel: try context.parameters.require("channel"))
        }
    }

    private func addChannelReads(to group: RouterGroup<ServeRequestContext>) {
        group.get { _, _ in try JSONResponse.of(try await builds.channels()) }
        group.get(":name") { _, context in try await channelState(try context.parameters.require("name")) }
        for method in [HTTPRequest.Method.get, .head] {
            group.on(":name/manifest", method: method) { request, context in
                try await channelManifest(request, name: try context.parameters.require("name"))
            }
        }
        group.get(":name/manifest.sig") { _, context in try await channelSignature(name: try context.parameters.require("name")) }
        group.get(":name/report") { _, context in try await channelReport(name: try context.parameters.require("name")) }
        group.get(":name/apple-asset-packs") { request, context in
            try await appleAssetPacks(request, channel: try context.parameters.require("name"))
        }
        group.get(":name/query") { request, context in try await query(request, channel: try context.parameters.require("name")) }
        group.get(":name/updates.json") { request, context in
            try await updateIndex(request, channel: try context.parameters.require("name"))
        }
        for method in [HTTPRequest.Method.get, .head] {
            group.on(":name/manifest.json.xz", method: method) { request, context in
                try await compressedManifest(request, channel: try context.parameters.require("name"))
            }
        }
        group.get(":name/patches/:file") { request, context in
            try await patchFile(request, channel: try context.parameters.require("name"), file: try context.parameters.require("file"))
        }
    }

    /// Publishing, uploads, reports, signatures, update files and channel moves: behind the bearer token, checked
    /// before a byte of the body is read.
    private func addWrites(to group: RouterGroup<ServeRequestContext>) {
        group.post("builds") { request, context in try await publishBuild(request, context: context) }
        group.put("blobs/:digest") { request, context in try await storeBlob(request, digest: try context.parameters.require("digest")) }
        group.put("objects/:digest") { request, context in
            try await storeObject(request, digest: try context.parameters.require("digest"))
        }
        group.put("builds/:id/report") { request, context in
            try await storeBuildReport(request, build: try context.parameters.require("id"))
        }
        group.put("builds/:id/signatures/:channel") { request, context in
            try await storeSignature(request, build: try context.parameters.require("id"),
                                     channel: try context.parameters.require("channel"))
        }
        group.put("builds/:id/manifest.json.xz") { request, context in
            try await storeCompressedManifest(request, build: try context.parameters.require("id"))
        }
        group.put("builds/:id/patches/:from") { request, context in
            try await storePatch(request, build: try context.parameters.require("id"), from: try context.parameters.require("from"))
        }
        group.put("channels/:name") { request, context in try await moveChannel(request, name: try context.parameters.require("name")) }
    }
}
