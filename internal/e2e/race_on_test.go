//go:build race

package e2e

// raceEnabled says the tests run under the race detector; the binary they
// run is then built with it too, so the wiring itself is race-checked.
const raceEnabled = true
