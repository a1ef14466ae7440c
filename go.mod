module github.com/ctrld-install/ctrld-install

go 1.26
