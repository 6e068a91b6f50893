package dev.loomscope.agent;

import dev.loomscope.options.AgentOptions;

/** {@code java -jar loomscope-agent.jar}: prints how to use the agent and its options. */
public final class AgentHelp {
    private AgentHelp() {}

    public static void main(String[] args) {
        System.out.print(AgentOptions.helpText());
    }
}
