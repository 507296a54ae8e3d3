package sysproc

// maxrssPerKiB: Linux counts ru_maxrss in KiB.
const maxrssPerKiB = 1
