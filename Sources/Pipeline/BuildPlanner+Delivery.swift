import Delivery
import JobEngine
import Slicing
import TesseraCore

extension BuildPlanner {
    /// The files that are not images made per scale: data sets' files (into the manifest and
    /// packs) and the sets that stay in the app (`OUTPUT/app/`).
    func addCarriedJobs(_ scan: Scan, outputs: inout PlannedOutputs,
                        to graph: inout JobGraph) -> (data: [JobRef<CarriedData>], kept: [JobRef<CarriedData>]) {
        let dataStage = DataStage(inputFolder: inputFolder, outputFolder: outputFolder, hashing: hashing)
        let app = AppStage(inputFolder: inputFolder, outputFolder: outputFolder, hashing: hashing)
        var data: [JobRef<CarriedData>] = [], kept: [JobRef<CarriedData>] = []
        for asset in scan.read.assets where scan.keeping.reason(for: asset) != nil {
            for file in AppKeeping.files(of: asset, inputFolder: inputFolder) {
                kept.append(graph.add(app.job(for: asset, file: file)))
            }
        }
        for asset in scan.read.assets where asset.kind != .image && asset.kind != .appIcon {
            for file in DataStage.files(of: asset) {
                let job = graph.add(dataStage.job(for: asset, file: file))
                data.append(job)
                outputs.addData(PlannedData(name: asset.name, kind: asset.kind.rawValue,
                                            file: PlannedFile(path: DataStage.relativePath(of: asset, file: file),
                                                              producer: job.key),
                                            tags: asset.tags))
            }
        }
        return (data, kept)
    }

    /// With a `slice` stage: each device class's selection, made once, read by the slice report
    /// and (with a `pack` stage) the bundle jobs; the target and deployment problems it finds.
    func addDeliveryJobs(_ scan: Scan, outputs: PlannedOutputs, manifest: JobRef<BuiltManifest>, to graph: inout JobGraph,
                         problems: inout [BuildProblem]) throws(TesseraError) -> (packing: ManifestStage.Packs?, sliced: JobKey?) {
        guard let slice = definition.slice else { return (nil, nil) }
        var devices: [DeviceClass] = []
        for id in TargetMembership.devices(slice: slice.devices, targets: definition.targets) {
            devices.append(try KnownDevices.device(id))
        }
        let membership = TargetMembership(targets: definition.targets, sharedDevices: Set(slice.devices))
        problems += targetProblems(scan.read.assets, membership: membership)
        problems += deploymentProblems(devices, membership: membership)
        let selections = DeviceSelection.make(devices: devices, assets: scan.read.assets, outputs: outputs,
                                              renders: scan.renders, membership: membership, app: definition.app,
                                              keeping: scan.keeping)
        let sliced = graph.add(SliceStage(outputFolder: outputFolder).job(manifest: manifest, selections: selections)).key
        guard let pack = definition.pack else { return (nil, sliced) }
        let packing = BundleJobs(options: pack, outputFolder: outputFolder, selections: selections, outputs: outputs)
            .addJobs(to: &graph)
        return (packing, sliced)
    }
}
