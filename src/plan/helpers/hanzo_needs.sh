# hanzo_needs NAME COMMAND PACKAGE: COMMAND is here, else one line saying what to install.
hanzo_needs() {
  command -v "$2" >/dev/null || {
    echo "hanzo-env: $1 needs Docker or the $3 package (install adds it when Docker is missing)" >&2
    return 1
  }
}
