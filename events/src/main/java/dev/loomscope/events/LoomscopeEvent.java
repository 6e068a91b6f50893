package dev.loomscope.events;

import jdk.jfr.Category;
import jdk.jfr.Event;
import jdk.jfr.StackTrace;

/**
 * What every loomscope event is: in JFR's {@code loomscope} category, written without a stack trace (what they say is
 * about the process or a run, not about where a thread was). JFR reads both from this class for each event that extends
 * it.
 */
@Category("loomscope")
@StackTrace(false)
public abstract class LoomscopeEvent extends Event {}
