"""How Dutch writes the law: the words the readers, repairs, references and gaps look for or write.

Only data: the modules that use these build their patterns from them.
"""
