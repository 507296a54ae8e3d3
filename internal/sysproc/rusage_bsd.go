//go:build unix && !linux

package sysproc

// maxrssPerKiB: macOS and the BSDs count ru_maxrss in bytes.
const maxrssPerKiB = 1024
