//go:build windows

package builtin

import (
	"os"
	"syscall"
)

// linkCount is the number of hard links to the open file f, asked of the
// handle itself (os.FileInfo does not carry it on Windows).
func linkCount(f *os.File, _ os.FileInfo) (uint64, error) {
	var d syscall.ByHandleFileInformation
	if err := syscall.GetFileInformationByHandle(syscall.Handle(f.Fd()), &d); err != nil {
		return 0, err
	}
	return uint64(d.NumberOfLinks), nil
}
