import Foundation
import SiftKit

ProcessMemory.freedAtExit = true
let outcome = SiftCLI.run(Array(CommandLine.arguments.dropFirst()))
FileHandle.standardOutput.write(Data(outcome.stdout.utf8))
FileHandle.standardError.write(Data(outcome.stderr.utf8))
exit(outcome.status)
