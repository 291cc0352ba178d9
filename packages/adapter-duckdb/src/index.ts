// The public API of this package. It grows with the issue that builds the package; nothing is exported yet.
export {}
