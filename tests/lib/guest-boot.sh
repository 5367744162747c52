# Sourced by tests/run-all and tests/check-debug: count results and boot
# the guest once to run vm/guest-tests.
#
#   count pass|skip|fail NAME      adds to $pass, $skip, $fail, $failed
#   boot LABEL TESTS [vm/run options...]
#	one boot running the guest tests named in TESTS (all if empty) and
#	the KUnit suites; every "RESULT" line is counted, and a vm/run
#	failure (a kernel report, a timeout) is a failure of its own.
#	$KERNEL, if set, is the kernel vm/run boots.
pass=0 fail=0 skip=0 failed=
count() {
	case $1 in
	pass) pass=$((pass + 1)) ;;
	skip) skip=$((skip + 1)) ;;
	*) fail=$((fail + 1)); failed="$failed $2" ;;
	esac
}

boot() {	# label, tests, vm/run options...
	local label=$1 tests=$2 out rc
	shift 2
	echo "guest: booting ($label)"
	out=$(mktemp)
	# KUnit is built in but off by default: these boots run the suites
	"$top/vm/run" --append kunit.enable=1 "$@" -- env TESTS="$tests" \
		"$top/vm/guest-tests" 2>&1 | tee "$out" | sed 's/^/    /'
	rc=${PIPESTATUS[0]}
	while read -r _ res name; do
		count "$res" "guest($label):$name"
	done < <(grep '^RESULT ' "$out")
	[ "$rc" = 0 ] || count fail "guest-boot($label, vm/run exit $rc)"
	rm -f "$out"
}
