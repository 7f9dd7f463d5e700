import CofferCommands

// coffer: every command but the HTTP server, which `coffer serve` hands to the coffer-serve binary beside it.
await CofferCommand.runMain { try CofferCommand.parseCommandLine() }
