@_exported import CofferModel
