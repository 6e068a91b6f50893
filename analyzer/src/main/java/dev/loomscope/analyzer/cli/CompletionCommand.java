package dev.loomscope.analyzer.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;

/** {@code loomscope completion}: a bash (and zsh) completion script for every command and option. */
@Command(name = "completion", mixinStandardHelpOptions = true,
        description = {"Prints a completion script for bash and zsh (picocli's AutoComplete): subcommands, options and their values.",
            "bash: source <(loomscope completion); zsh: autoload -U +X bashcompinit && bashcompinit && source <(loomscope completion)"})
public final class CompletionCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getOut().print(AutoComplete.bash("loomscope", Main.full()));
        spec.commandLine().getOut().flush();
        return Errors.OK;
    }
}
