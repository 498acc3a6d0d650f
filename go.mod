module quire

go 1.26.8
