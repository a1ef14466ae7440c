//go:build !windows

package main

// Elsewhere the service is the service file the scenario names.
func installService()            {}
func serviceStatus() (int, bool) { return 0, false }
func uninstallService()          {}
func runService()                {}
