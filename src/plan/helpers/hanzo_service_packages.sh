# hanzo_service_packages compose|run PACKAGE...: where Docker cannot bring the services up,
# the distribution packages that run them instead.
hanzo_service_packages() {
  hanzo_docker "$1" && return 0
  shift
  hanzo_apt_install "for the services (or install Docker)" "$@"
}
