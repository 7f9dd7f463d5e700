@_exported import CofferModel
@_exported import CofferFormats
@_exported import CofferStore
@_exported import CofferPipeline
@_exported import CofferExport
