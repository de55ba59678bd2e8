// Built into one file (dist/deps/picomatch.cjs): the package is five CommonJS files, each resolved and read on its own.
import picomatch from "picomatch";

export default picomatch;
