@_exported import CofferStore
@_exported import CofferFormats
