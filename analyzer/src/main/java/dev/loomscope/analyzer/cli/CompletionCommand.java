package dev.loomscope.analyzer.cli;

import picocli.AutoComplete;
import picocli.CommandLine.Command;

/** {@code loomscope completion}: a bash (and zsh) completion script for every command and option. */
@Command(
        name = "completion",
        mixinStandardHelpOptions = true,
        description = {
            "Prints a completion script for bash and zsh (picocli's AutoComplete): subcommands, options and their"
                    + " values.",
            "bash: source <(loomscope completion); zsh: autoload -U +X bashcompinit && bashcompinit && source"
                    + " <(loomscope completion)"
        })
public final class CompletionCommand extends CliCommand {

    @Override
    public Integer call() {
        stdout().print(AutoComplete.bash("loomscope", Main.full()));
        stdout().flush();
        return Errors.OK;
    }
}
