// Built into one file (dist/deps/yaml.cjs): loading one file is several times faster than the package's many.
import yaml from "yaml";

export default yaml;
