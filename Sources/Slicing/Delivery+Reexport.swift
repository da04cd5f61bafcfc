// Delivery holds what builds and apps must agree on (manifest, query, devices, bundle reading);
// re-exported so code that imports Slicing keeps seeing those types where they used to live.
@_exported import Delivery
