// The tests start children with ``SpawnedProcess``; every file that imports TestSupport has it.
@_exported public import ChildProcesses
