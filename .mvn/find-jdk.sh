# Finds a JDK >= 21 for loomscope. Sourced (POSIX sh) by ./loomscope and ./mvnw.
#
# Order: $JAVA_HOME when it is 21+; otherwise the newest JDK 21+ among `java` on the PATH and
# the standard install locations ($LOOMSCOPE_JDK_DIRS replaces that list: directories that
# hold JDKs, separated by ':').
# A JDK has javac; with LOOMSCOPE_RUNTIME_OK set (a release, which compiles nothing) a Java runtime serves too.
# On success: LOOMSCOPE_JAVA_HOME, LOOMSCOPE_JAVA_MAJOR (25) and LOOMSCOPE_JAVA_VERSION (25.0.3) are set, return 0.
# On failure: LOOMSCOPE_JDK_ERROR holds a one-line explanation, return 1.

LOOMSCOPE_MIN_JDK=21

# Sets _v to the version of the JDK in directory $1 as its release file says it (e.g. 25.0.3) and _m
# to its feature version (25), or both to nothing. In the calling shell, not a subshell: the launcher
# runs this for every JDK it sees on each start.
loomscope_read_jdk() {
    _v=""
    _m=""
    [ -x "$1/bin/java" ] && { [ -n "${LOOMSCOPE_RUNTIME_OK:-}" ] || [ -x "$1/bin/javac" ]; } || return 0
    if [ -f "$1/release" ]; then
        # read by the shell itself, not sed
        while IFS= read -r _line || [ -n "$_line" ]; do
            case "$_line" in
                JAVA_VERSION=\"*) _v=${_line#JAVA_VERSION=\"}; _v=${_v%%\"*}; break ;;
            esac
        done <"$1/release"
    fi
    if [ -z "$_v" ]; then
        _v=$("$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p' | head -n 1)
    fi
    _m=${_v#1.}
    _m=${_m%%[!0-9]*}
    [ -n "$_m" ] || _v=""
    return 0
}

loomscope_jdk_dirs() {
    if [ -n "${LOOMSCOPE_JDK_DIRS:-}" ]; then
        echo "$LOOMSCOPE_JDK_DIRS"
    else
        echo "/usr/lib/jvm:/usr/java:/usr/local/java:/usr/local/lib/jvm:/opt/java:/opt/jdk:/opt:$HOME/.sdkman/candidates/java:$HOME/.jdks:$HOME/.asdf/installs/java:$HOME/.local/share/mise/installs/java:/Library/Java/JavaVirtualMachines:$HOME/Library/Java/JavaVirtualMachines"
    fi
}

loomscope_find_jdk() {
    LOOMSCOPE_JAVA_HOME=""
    LOOMSCOPE_JAVA_MAJOR=""
    LOOMSCOPE_JAVA_VERSION=""
    LOOMSCOPE_JDK_ERROR=""
    if [ -n "${JAVA_HOME:-}" ]; then
        loomscope_read_jdk "$JAVA_HOME"
        if [ -n "$_m" ] && [ "$_m" -ge "$LOOMSCOPE_MIN_JDK" ]; then
            LOOMSCOPE_JAVA_HOME=$JAVA_HOME
            LOOMSCOPE_JAVA_MAJOR=$_m
            LOOMSCOPE_JAVA_VERSION=$_v
            return 0
        fi
    fi
    _best=""
    _bestm=0
    _bestv=""
    # `java` on the PATH, resolved through links (…/bin/java -> the JDK's home).
    _j=$(command -v java 2>/dev/null || true)
    if [ -n "$_j" ]; then
        _j=$(readlink -f "$_j" 2>/dev/null || echo "$_j")
        _h=${_j%/bin/java}
        loomscope_read_jdk "$_h"
        if [ -n "$_m" ] && [ "$_m" -gt "$_bestm" ]; then _best=$_h; _bestm=$_m; _bestv=$_v; fi
    fi
    _oldifs=$IFS
    IFS=:
    for _root in $(loomscope_jdk_dirs); do
        IFS=$_oldifs
        [ -d "$_root" ] || continue
        for _h in "$_root"/* "$_root"/*/Contents/Home; do
            [ -d "$_h" ] || continue
            loomscope_read_jdk "$_h"
            if [ -n "$_m" ] && [ "$_m" -gt "$_bestm" ]; then _best=$_h; _bestm=$_m; _bestv=$_v; fi
        done
    done
    IFS=$_oldifs
    if [ -n "$_best" ] && [ "$_bestm" -ge "$LOOMSCOPE_MIN_JDK" ]; then
        LOOMSCOPE_JAVA_HOME=$_best
        LOOMSCOPE_JAVA_MAJOR=$_bestm
        LOOMSCOPE_JAVA_VERSION=$_bestv
        return 0
    fi
    if [ -n "$_best" ]; then
        _seen="the newest found is JDK $_bestm at $_best"
    else
        _seen="none was found"
    fi
    LOOMSCOPE_JDK_ERROR="no JDK $LOOMSCOPE_MIN_JDK or newer found ($_seen; looked at JAVA_HOME, PATH and the usual install directories): install JDK $LOOMSCOPE_MIN_JDK+ and set JAVA_HOME to it"
    return 1
}
