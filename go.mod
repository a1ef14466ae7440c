module github.com/ctrld-install/ctrld-install

go 1.26.0

require (
	golang.org/x/sys v0.50.0
	howett.net/plist v1.0.1
)

require github.com/magefile/mage v1.17.2

require (
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/tools v0.26.0 // indirect
)
