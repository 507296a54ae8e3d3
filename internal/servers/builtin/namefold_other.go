//go:build !windows && !darwin

package builtin

// foldName is a file name as the usual file systems here compare it:
// exactly. A case-insensitive folder (ext4 casefold, a mounted FAT disk) is
// still caught for names that exist, by comparing files by identity.
func foldName(name string) string { return name }
