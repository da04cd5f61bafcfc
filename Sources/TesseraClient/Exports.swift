// An app writes `import TesseraClient` and sees the types its API speaks in: Manifest,
// BundleQuery, DeviceClass (Delivery), TesseraError and ContentHash (TesseraCore).
@_exported import Delivery
@_exported import TesseraCore
