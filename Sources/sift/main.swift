import SiftKit
print("sift")
