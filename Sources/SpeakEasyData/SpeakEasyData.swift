@_exported public import SpeakEasyAccounts
@_exported public import SpeakEasyAzure
@_exported public import SpeakEasyConversion
// The library as one module, for the tools and the tests: every layer re-exported (see Package.swift
// for the layers and the direction between them).
@_exported public import SpeakEasyCore
@_exported public import SpeakEasyFormats
@_exported public import SpeakEasyModel
@_exported public import SpeakEasyProtocol
@_exported public import SpeakEasySeeding
@_exported public import SpeakEasyStorage
@_exported public import SpeakEasyValidation
