# hanzo_mysql PORT DATABASE USER PASSWORD [ROOT_PASSWORD]: MariaDB (it speaks MySQL's
# protocol) from the distribution's package; one server per machine, answering a second
# service's port too.
hanzo_mysql() {
  hanzo_needs mysql mariadb mariadb-server || return 1
  local d=${2//\`/\`\`} u=${3//\\/\\\\} p=${4//\\/\\\\} r=${5//\\/\\\\}
  u=${u//\'/\'\'}; p=${p//\'/\'\'}; r=${r//\'/\'\'}
  local cnf=/etc/mysql/mariadb.conf.d/99-hanzo-env.cnf
  if ! hanzo_answers "$1"; then
    if hanzo_root mariadb -e '' >/dev/null 2>&1; then # running on another port: its second one
      hanzo_root grep -qs '^extra_port' "$cnf" && { echo "hanzo-env: mysql answers two ports at most; port $1 needs Docker" >&2; return 1; }
      printf 'extra_port = %s\n' "$1" | hanzo_root tee -a "$cnf" >/dev/null || return 1
      hanzo_root /etc/init.d/mariadb restart >/dev/null || return 1
    else
      printf '[mysqld]\nport = %s\nbind-address = 127.0.0.1\n' "$1" | hanzo_root tee "$cnf" >/dev/null || return 1
      if [ -x /etc/init.d/mariadb ]; then hanzo_root /etc/init.d/mariadb start >/dev/null || return 1
      else hanzo_root setsid mysqld_safe >/dev/null 2>&1 & fi
    fi
    hanzo_wait mysql "$1" || return 1
  fi
  { [ -z "$2" ] || echo "CREATE DATABASE IF NOT EXISTS \`$d\`;"
    [ -z "$3" ] || echo "CREATE USER IF NOT EXISTS '$u'@'%'; ALTER USER '$u'@'%' IDENTIFIED BY '$p';"
    [ -z "$3" ] || [ -z "$2" ] || echo "GRANT ALL ON \`$d\`.* TO '$u'@'%';"
    [ $# -lt 5 ] || echo "ALTER USER 'root'@'localhost' IDENTIFIED VIA unix_socket OR mysql_native_password USING PASSWORD('$r'); CREATE USER IF NOT EXISTS 'root'@'%'; ALTER USER 'root'@'%' IDENTIFIED BY '$r'; GRANT ALL ON *.* TO 'root'@'%' WITH GRANT OPTION;"
  } | hanzo_root mariadb
}
