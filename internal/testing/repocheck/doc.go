// Package repocheck holds the checks on the repository as a whole: the CI
// workflow and scripts lint clean, every Go file is gofmted, nothing
// outside internal/testing imports a package under it, production code
// imports no test helper, and a plain clone builds and tests without
// anything from outside it.
package repocheck
